# Tableside: `make run` and `make test` each set up everything they need.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Debian packages the tests need: a virtual screen for the Kivy tests and
# the GL libraries Kivy's SDL2 window draws with, mtdev for multitouch, xclip for its clipboard.
DEBS   := xvfb xauth xdotool xclip libmtdev1 libgl1 libegl1 libgl1-mesa-dri
DEBS   += fonts-noto-core  # Noto Sans, Devanagari, Gujarati: the four scripts on screen; doctor checks them
DEBS   += fuse3  # the journal's power-cut test: fusermount3 and libfuse3 for mfusepy
DEBS   += mosquitto  # the hall's MQTT broker, started by tests/hall
DEBS   += chromium  # the hall's board page in a headless browser (tests/hall)
DEBS   += chromium-driver  # Selenium drives that Chromium (tests/hall)
DEBS   += openssl  # a CA and a broker certificate for the hall's TLS test (tests/hall)
export KIVY_NO_ARGS := 1
export KIVY_LOG_MODE := PYTHON
export KIVY_NO_CONSOLELOG := 1

.PHONY: all setup debs run test lint typecheck pytest bench train clean

all: test

# The venv's own pip installs the project (an upgrade of pip first cost 10 s of a fresh
# clone's time); the packages' bytecode is written as they are first imported, not all ahead.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --no-compile -e '.[test]'
	touch $(STAMP)

setup: $(STAMP) debs

# Install what is missing, when apt is usable (root, or sudo without a password).
debs:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "missing Debian packages:$$missing (install them as root)"; exit 1; fi; \
	  echo "installing Debian packages:$$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# On a computer without a screen the kiosk opens on a virtual one.
run: setup
	@if [ -n "$$DISPLAY" ] || [ -n "$$WAYLAND_DISPLAY" ]; then $(BIN)/tableside run --simulate; \
	else echo "no display: running on a virtual screen (Xvfb)"; \
	  xvfb-run -a -s "-screen 0 1024x600x24" $(BIN)/tableside run --simulate; fi

# Ruff and mypy run beside pytest, not before it (pytest's workers leave part of a core
# idle; mypy alone takes about 40 s of a fresh clone's time), mypy at a lower priority so the
# tests keep their CPU. Their output is held and printed after pytest's; the target fails if
# any of the three did, and names each that did. `make lint`, `make typecheck` and `make
# pytest` run one each.
test: setup
	@held=$$(mktemp -d); \
	$(MAKE) --no-print-directory lint >$$held/lint 2>&1 & lint=$$!; \
	nice -n 5 $(MAKE) --no-print-directory typecheck >$$held/typecheck 2>&1 & typecheck=$$!; \
	$(MAKE) --no-print-directory pytest; pytest=$$?; \
	wait $$lint; lint=$$?; wait $$typecheck; typecheck=$$?; \
	for step in lint typecheck; do echo "== make $$step"; cat $$held/$$step; done; \
	rm -rf $$held; failed=""; \
	[ $$lint = 0 ] || failed="$$failed lint"; \
	[ $$typecheck = 0 ] || failed="$$failed typecheck"; \
	[ $$pytest = 0 ] || failed="$$failed pytest"; \
	if [ -n "$$failed" ]; then echo "make test FAILED:$$failed (make$$failed runs them alone)"; exit 1; fi; \
	echo "make test: lint, typecheck and pytest passed"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# The slowest tests are listed at the end. A run that goes on past 40 minutes is interrupted
# as Ctrl-C would: pytest still prints what passed, what failed and the slowest tests so far,
# rather than being killed without a word by CI's own limit. Three workers (pytest-xdist) on
# two cores: the Kivy tests wait on frames, and two workers kept only 1.3 cores busy (9:26
# against 6:52 for three). Each worker draws on an X display of its own (tests/conftest.py).
PYTEST = timeout -s INT 2400 $(BIN)/pytest --durations=15 -n 3
pytest: $(STAMP) debs
	@if [ -n "$$DISPLAY" ]; then $(PYTEST); \
	else xvfb-run -a -s "-screen 0 1024x600x24" $(PYTEST); fi

bench: setup
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# The learned stage's model (vision/models/coin_net.onnx), trained on the renderer's boards
# (training/coin_net.py). PyTorch is needed only for this, in a virtual environment of its
# own; the kiosk runs the model with cv2.dnn. The training is a number of steps, not of
# minutes, and seeded: the same sizes and seed give the same weights on any machine's CPU
# (torch 2.13, 2 threads), however busy it is. Sized for 60 minutes or less on this idle
# 2-core machine (docs/vision.md, "Training", has the measured figures).
# A quick run of the whole recipe, to check it works, with a model that is not shipped:
#   make train TRAIN_STEPS=50 HOME_FILES=0 BOARDS=40 TOURNAMENT=40 TUNING=20 \
#     DATA=/tmp/coin_net MODEL=/tmp/coin_net/coin_net.onnx
# That it is reproducible (the small recipe twice, bit for bit): sh training/reproducible.sh
TRAIN := .venv-train/bin
DATA ?= build/coin_net
# Written beside the data, not over the shipped model: one run of this recipe is not yet as
# good on real photos as the shipped model (docs/vision.md); a model is shipped by copying it
# to vision/models/coin_net.onnx once it is compared (MODEL=vision/models/coin_net.onnx).
MODEL ?= $(DATA)/coin_net.onnx
TRAIN_STEPS ?= 3600
SEED ?= 1
HOME_FILES ?= 0 1 2 3 4 5 6 7 8 9
BOARDS ?= 500
TOURNAMENT ?= 1000
TUNING ?= 200
JOBS ?= 2
$(TRAIN)/python:
	$(PYTHON) -m venv .venv-train
	$(TRAIN)/pip install --quiet torch==2.13.0 onnx onnxscript numpy opencv-python-headless==5.0.0.93
# Only the training's own environment: nothing here runs in the kiosk's.
train: $(TRAIN)/python
	rm -f $(DATA)/home*.npz
	for i in $(HOME_FILES); do \
	  $(TRAIN)/python training/coin_net.py data --first $$((10000000 + $(BOARDS) * i)) \
	    --count $(BOARDS) --jobs $(JOBS) --out $(DATA)/home$$i.npz || exit 1; done
	$(TRAIN)/python training/coin_net.py data --tournament --first 20000000 \
	  --count $(TOURNAMENT) --jobs $(JOBS) --out $(DATA)/tournament.npz
	$(TRAIN)/python training/coin_net.py data --first 1 --count $(TUNING) --jobs $(JOBS) \
	  --out $(DATA)/tuning.npz
	$(TRAIN)/python training/coin_net.py train --data $(DATA)/home*.npz $(DATA)/tournament.npz \
	  --steps $(TRAIN_STEPS) --seed $(SEED) --out $(DATA)/coin_net.pt
	$(TRAIN)/python training/coin_net.py check $(DATA)/coin_net.pt --data $(DATA)/tuning.npz
	$(TRAIN)/python training/coin_net.py export $(DATA)/coin_net.pt $(MODEL)

clean:
	rm -rf $(VENV) .venv-train .mypy_cache .ruff_cache .pytest_cache tests/artifacts
