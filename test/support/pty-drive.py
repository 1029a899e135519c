# Runs a command in a pseudo-terminal (so its stdin is a TTY, as when a person types), answers each
# password prompt it shows with the next answer, and prints {"code", "output"} as JSON. Used by
# test/client/cli-owner.test.ts to test the CLI's prompt without echo; Node has no pty of its own.
import json, os, pty, select, sys

spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(spec["cmd"][0], spec["cmd"], dict(os.environ, **spec.get("env", {})))
output = b""
answers = list(spec["answers"])
answered = 0
while True:
    ready, _, _ = select.select([fd], [], [], 300)
    if not ready:
        break
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    output += data
    prompts = output.count(b"Password") + output.count(b"Again: ")
    while answered < prompts and answers:
        os.write(fd, answers.pop(0).encode() + b"\r")
        answered += 1
_, status = os.waitpid(pid, 0)
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
print(json.dumps({"code": code, "output": output.decode("utf-8", "replace")}))
