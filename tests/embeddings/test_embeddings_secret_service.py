"""One integration test through a real Secret Service (gnome-keyring on a private D-Bus).

CI installs the apt package `gnome-keyring`; elsewhere the test skips and says why.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

KEY = "sk-itest-secretservice-0123456789abcdef"

SCRIPT = textwrap.dedent(f"""
    import json
    import keyring
    from matchlens.embeddings import credentials as c

    out = {{"backend": c.keyring_backend_name(), "available": c.keyring_available()}}
    c.save_api_key({KEY!r})
    out["raw_matches"] = keyring.get_password("matchlens", "openai_api_key") == {KEY!r}
    key = c.resolve_api_key()
    out["source"], out["matches"], out["note"] = key.source, key.value == {KEY!r}, key.note
    out["deleted"] = c.delete_api_key()
    out["deleted_again"] = c.delete_api_key()
    out["after"] = c.resolve_api_key().source
    print(json.dumps(out))
""")


def test_secret_service_stores_reads_and_deletes_the_key(tmp_path):
    missing = [tool for tool in ("dbus-run-session", "gnome-keyring-daemon")
               if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"no real Secret Service here ({', '.join(missing)} not installed; "
                    "CI installs the apt package gnome-keyring)")
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "check.py").write_text(SCRIPT, encoding="utf-8")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "LANG": "C.UTF-8",
    }
    shell = ('printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null '
             f'&& exec "{sys.executable}" "{tmp_path / "check.py"}"')
    done = subprocess.run(["dbus-run-session", "--", "sh", "-c", shell], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["backend"] == "SecretService Keyring" and out["available"]
    assert out["raw_matches"] and out["matches"] and out["source"] == "keyring"
    assert out["note"] == "Using the API key stored in the system keyring (SecretService Keyring)"
    assert (out["deleted"], out["deleted_again"], out["after"]) == (True, False, None)
    # gnome-keyring keeps the key encrypted: it is in no file under the private HOME.
    for path in home.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path
