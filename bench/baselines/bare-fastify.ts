import Fastify from 'fastify';

/** Baseline for create throughput: a bare Fastify POST route answering a constant JSON. */
const app = Fastify({ logger: false });
const body = { folderId: 'q1w2e3r4t5y6u7i8', folderUrl: 'http://127.0.0.1/f/q1w2e3r4t5y6u7i8#hBpPDCeFGgmzeR5J3sZQ2w', mode: 'send', uploadRequiredWithinHours: 24, files: [] };
app.post('/v2/folders', async () => body);
app.get('/', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
