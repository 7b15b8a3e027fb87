#!/bin/sh
# Check that `make train` is reproducible: a small recipe run twice, once rendering the
# boards with two workers and once with one, must give the same boards, the same weights
# (training/coin_net.py digest: the tensors' sha256; torch.save's file itself holds a
# random id) and the same .onnx file, byte for byte. About 10 minutes on a 2-core machine.
# Usage: sh training/reproducible.sh [FOLDER] [STEPS]   (default build/reproducible, 300)
set -e
cd "$(dirname "$0")/.."
dir=${1:-build/reproducible}
steps=${2:-300}
py=.venv-train/bin/python
rm -rf "$dir"
mkdir -p "$dir"
for run in a:2 b:1; do
  name=${run%:*}
  jobs=${run#*:}
  make --no-print-directory train TRAIN_STEPS="$steps" HOME_FILES=0 BOARDS=40 TOURNAMENT=40 \
    TUNING=20 JOBS="$jobs" DATA="$dir/$name" MODEL="$dir/$name/coin_net.onnx" >"$dir/$name.log" 2>&1 ||
    { tail -20 "$dir/$name.log"; exit 1; }
done
"$py" - "$dir/a" "$dir/b" <<'PY'
import sys
from pathlib import Path

import numpy as np

a, b = Path(sys.argv[1]), Path(sys.argv[2])
for f in sorted(a.glob("*.npz")):
    x, y = np.load(f), np.load(b / f.name)
    same = all(np.array_equal(x[k], y[k]) for k in x.files)
    print(f"{f.name}: {'the same boards' if same else 'BOARDS DIFFER'}")
    if not same:
        sys.exit(1)
PY
wa=$("$py" training/coin_net.py digest "$dir/a/coin_net.pt" | cut -d' ' -f1)
wb=$("$py" training/coin_net.py digest "$dir/b/coin_net.pt" | cut -d' ' -f1)
oa=$(sha256sum "$dir/a/coin_net.onnx" | cut -d' ' -f1)
ob=$(sha256sum "$dir/b/coin_net.onnx" | cut -d' ' -f1)
echo "weights: $wa $wb"
echo "onnx:    $oa $ob"
if [ "$wa" = "$wb" ] && [ "$oa" = "$ob" ]; then echo "reproducible: $steps steps, bit for bit"; else
  echo "NOT REPRODUCIBLE"
  exit 1
fi
