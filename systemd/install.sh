#!/bin/sh
# Install the Tableside kiosk on a Raspberry Pi (Raspberry Pi OS / Debian), as root:
#   sudo systemd/install.sh            # from a checkout of the project
# Creates the user `tableside` in the device groups, copies the project to /opt/tableside,
# makes its virtual environment, creates the data folder /var/lib/tableside with the journal
# and the settings (settings.toml, from config/default.toml, kept if present; the settings
# screen writes it) and enables the service.
set -eu

PREFIX=${PREFIX:-/opt/tableside}
DATA_DIR=${DATA_DIR:-/var/lib/tableside}
USER_NAME=tableside
DEVICE_GROUPS="gpio video render input dialout"
SRC=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo $0)" >&2
    exit 1
fi

echo "== Debian packages"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    python3-venv python3-dev libsdl2-2.0-0 libgl1 libegl1 libgles2 libgl1-mesa-dri \
    python3-lgpio >/dev/null

echo "== user $USER_NAME"
for group in $DEVICE_GROUPS; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id "$USER_NAME" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$DATA_DIR" --shell /usr/sbin/nologin "$USER_NAME"
fi
usermod -a -G "$(echo $DEVICE_GROUPS | tr ' ' ',')" "$USER_NAME"

echo "== $PREFIX"
mkdir -p "$PREFIX"
# The project without its checkout's virtual environment and caches.
tar -C "$SRC" --exclude=.venv --exclude=.git --exclude='*_cache' --exclude=tests/artifacts \
    -cf - . | tar -C "$PREFIX" -xf -
if [ ! -x "$PREFIX/.venv/bin/python" ]; then
    python3 -m venv --system-site-packages "$PREFIX/.venv"
fi
"$PREFIX/.venv/bin/pip" install --quiet --upgrade pip
"$PREFIX/.venv/bin/pip" install --quiet "$PREFIX"

echo "== settings and journal"
install -d -m 0750 -o "$USER_NAME" -g "$USER_NAME" "$DATA_DIR"
if [ ! -f "$DATA_DIR/settings.toml" ]; then
    install -m 0640 -o "$USER_NAME" -g "$USER_NAME" "$PREFIX/config/default.toml" \
        "$DATA_DIR/settings.toml"
fi
"$PREFIX/.venv/bin/tableside" config check "$DATA_DIR/settings.toml"

echo "== service"
install -m 0644 "$SRC/systemd/tableside.service" /etc/systemd/system/tableside.service
systemctl daemon-reload
systemctl enable tableside.service
echo "installed: start it with 'systemctl start tableside', follow it with 'journalctl -fu tableside'"
echo "change the umpire PIN in $DATA_DIR/settings.toml (docs/configuration.md)"
