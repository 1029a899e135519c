import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../app/errors.js';
import { answerConsent, type ConsentAction, type ConsentQuery, checkConsentLink } from '../../app/mail-consent.js';
import type { Services } from '../../app/services.js';
import { mailConsentQuery } from '../../contract/requests.js';
import { CONSENT_PAGE_CSP, consentPage, type PageWord, pageLanguage } from '../answers/mail-pages.js';
import { routePolicy } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { sitePath } from './site.js';

/**
 * The links of the instance's mail (src/app/mail-consent.ts), under the site's path:
 * `GET /mail/confirm` and `GET /mail/refuse` show what the link does with a button; the button
 * POSTs to the same address, which records the answer. `POST /mail/refuse` is also the RFC 8058
 * one-click target of every mail's `List-Unsubscribe` header (a mail provider POSTs
 * `List-Unsubscribe=One-Click` there). Not part of the v2 contract.
 */
const PAGES: Record<
  ConsentAction,
  { ask: PageWord; askText: PageWord; button: PageWord; done: PageWord; doneText: PageWord }
> = {
  confirm: {
    ask: 'confirmTitle',
    askText: 'confirmText',
    button: 'confirmButton',
    done: 'confirmedTitle',
    doneText: 'confirmedText',
  },
  refuse: {
    ask: 'refuseTitle',
    askText: 'refuseText',
    button: 'refuseButton',
    done: 'refusedTitle',
    doneText: 'refusedText',
  },
};

export async function mailConsentRoutes(app: FastifyInstance, { services }: { services: Services }): Promise<void> {
  const { config } = services;
  // The form's body and a provider's one-click body say nothing the signed query does not: read
  // and ignored, within a small limit.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_r, _b, done) => done(null, undefined),
  );
  type Q = { Querystring: ConsentQuery };
  const options = {
    ...limitedBy('site'),
    config: routePolicy('page', ['signed-url']),
    schema: { querystring: mailConsentQuery },
  };

  const page = (_request: FastifyRequest<Q>, reply: FastifyReply, status: number, html: string) =>
    reply
      .status(status)
      .header('content-security-policy', CONSENT_PAGE_CSP)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);

  for (const action of ['confirm', 'refuse'] as const) {
    const url = `${sitePath(config)}/mail/${action}`;
    const words = PAGES[action];
    const run = async (request: FastifyRequest<Q>, reply: FastifyReply, act: boolean) => {
      const lang = pageLanguage(request.headers['accept-language']);
      const base = { lang, site: config.siteName, address: request.query.address };
      try {
        if (act) await answerConsent(services, action, request.query);
        else await checkConsentLink(services, action, request.query);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return page(
          request,
          reply,
          error.status,
          consentPage({ ...base, title: 'badTitle', text: { raw: error.message } }),
        );
      }
      return act
        ? page(request, reply, 200, consentPage({ ...base, title: words.done, text: words.doneText }))
        : page(
            request,
            reply,
            200,
            consentPage({ ...base, title: words.ask, text: words.askText, button: words.button }),
          );
    };
    app.get<Q>(url, options, (request, reply) => run(request, reply, false));
    app.post<Q>(url, options, (request, reply) => run(request, reply, true));
  }
}
