# The oracle: run with the workspace as the working folder.
set -eu
python3 - <<'PY'
from pathlib import Path

path = Path("serve.py")
text = path.read_text()
text = text.replace('    return {"echo": text}', '    return {"echo": prefix + text}')
text = text.replace(
    '        url = urlparse(self.path)\n',
    '        url = urlparse(self.path)\n'
    '        log = os.environ.get("APP_LOG")\n'
    '        if log:\n'
    '            with open(log, "a") as handle:\n'
    '                handle.write(json.dumps({"path": url.path}) + "\\n")\n'
    '        if url.path == "/healthz":\n'
    '            self.send_response(200)\n'
    '            self.end_headers()\n'
    '            self.wfile.write(b"ok")\n'
    '            return\n',
)
path.write_text(text)
PY
