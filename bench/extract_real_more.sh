#!/bin/sh
# Extract the real photos of bench/real_more_labels.json (the second real measure, never used for tuning) from fetched
# repository mirrors into a folder (default: build/vision-real-more). First fetch each repository named in the labels with
# the search tool (fetch github:OWNER/NAME); it answers with the mirror's git directory. The images are never committed.
# Usage: extract_real_more.sh MIRRORS_ROOT [DEST]   (MIRRORS_ROOT holds OWNER+NAME/ folders)
set -e
here=$(cd "$(dirname "$0")" && pwd); root=${1:?usage: extract_real_more.sh MIRRORS_ROOT [DEST]}; dest=${2:-build/vision-real-more}
mkdir -p "$dest"
python3 - "$here/real_more_labels.json" "$root" "$dest" <<'PY'
import hashlib, json, subprocess, sys, pathlib
labels, root, dest = json.load(open(sys.argv[1])), pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
for name, lab in labels["photos"].items():
    g = root / lab["repo"].replace("/", "+") / "repo"
    g = g / ".git" if (g / ".git").is_dir() else g
    if not g.is_dir():
        print(f"missing mirror for {lab['repo']}: fetch github:{lab['repo']}", file=sys.stderr); continue
    got = subprocess.run(["git", "--git-dir", str(g), "show", f"{lab['commit']}:{lab['path']}"], capture_output=True)
    if got.returncode:  # a newer snapshot may lack the labelled commit: take HEAD, the checksum below still guards
        got = subprocess.run(["git", "--git-dir", str(g), "show", f"HEAD:{lab['path']}"], capture_output=True)
    data = got.stdout
    ok = hashlib.sha256(data).hexdigest() == lab["sha256"]
    (dest / name).write_bytes(data); print(name, len(data), "ok" if ok else "CHECKSUM DIFFERS")
PY
