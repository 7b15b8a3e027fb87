#!/bin/sh
# Install, upgrade or remove the Tableside kiosk on a Raspberry Pi (Raspberry Pi OS Bookworm),
# as root, from a checkout of the project (docs/install.md):
#   sudo systemd/install.sh              # install; run again to upgrade
#   sudo systemd/install.sh --uninstall  # remove the program and the service, keep the data
#   sudo systemd/install.sh --uninstall --purge   # ... and the journal, settings and user
#   sudo systemd/install.sh --wheel FILE # install this built wheel instead of the checkout
# Installing creates the user `tableside` in the device groups, copies the project to
# /opt/tableside with its virtual environment, creates the data folder /var/lib/tableside
# (0750) with the settings (settings.toml, 0640, written by `tableside config init`, kept if
# present: the settings screen writes it), turns console blanking off, and enables the
# service. An upgrade replaces the program and the unit and keeps the journal and settings.
#
# DESTDIR (empty on a Pi) puts every file under another root: tests/install runs the script
# there with the system tools (apt-get, useradd, systemctl, ...) replaced on PATH, so it
# cannot touch the machine. With DESTDIR set, root is not required.
set -eu

DESTDIR=${DESTDIR:-}
PREFIX=/opt/tableside
DATA_DIR=/var/lib/tableside
UNIT_DIR=/etc/systemd/system
USER_NAME=tableside
DEVICE_GROUPS="gpio video render input dialout"
SRC=$(cd "$(dirname "$0")/.." && pwd)

ACTION=install
PURGE=no
WHEEL=
while [ $# -gt 0 ]; do
    case $1 in
        --uninstall) ACTION=uninstall ;;
        --purge) PURGE=yes ;;
        --wheel)
            [ $# -ge 2 ] || { echo "install.sh: --wheel needs a file" >&2; exit 2; }
            WHEEL=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
            shift
            ;;
        -h | --help) sed -n '2,7p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (--uninstall, --purge, --wheel FILE)" >&2; exit 2 ;;
    esac
    shift
done
if [ "$PURGE" = yes ] && [ "$ACTION" != uninstall ]; then
    echo "install.sh: --purge goes with --uninstall" >&2
    exit 2
fi
if [ -z "$DESTDIR" ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo $0)" >&2
    exit 1
fi

P=$DESTDIR$PREFIX
D=$DESTDIR$DATA_DIR
U=$DESTDIR$UNIT_DIR

uninstall() {
    echo "== service"
    systemctl disable --now tableside.service || true
    rm -f "$U/tableside.service"
    systemctl daemon-reload
    echo "== $PREFIX"
    rm -rf "$P"
    if [ "$PURGE" = yes ]; then
        echo "== purge: $DATA_DIR and the user $USER_NAME"
        rm -rf "$D"
        if getent passwd "$USER_NAME" >/dev/null; then userdel "$USER_NAME"; fi
    else
        echo "kept: the journal and settings in $DATA_DIR (--uninstall --purge removes them)"
    fi
}

# The kernel console blanks the screen after a few idle minutes; a kiosk must not.
console_blank_off() {
    cmdline=$DESTDIR/boot/firmware/cmdline.txt
    if [ -f "$cmdline" ] && ! grep -q 'consoleblank=0' "$cmdline"; then
        # cmdline.txt is one line; the setting goes at its end, from the next boot.
        sed -i '1 s/$/ consoleblank=0/' "$cmdline"
    fi
    blank=/sys/module/kernel/parameters/consoleblank
    if [ -z "$DESTDIR" ] && [ -w "$blank" ]; then
        echo 0 >"$blank" # and at once, without a reboot
    fi
}

if [ "$ACTION" = uninstall ]; then
    uninstall
    exit 0
fi

echo "== Debian packages"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    python3-venv python3-dev libsdl2-2.0-0 libgl1 libegl1 libgles2 libgl1-mesa-dri \
    libmtdev1 python3-lgpio fonts-noto-core >/dev/null

echo "== user $USER_NAME"
for group in $DEVICE_GROUPS; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! getent passwd "$USER_NAME" >/dev/null; then
    useradd --system --user-group --home-dir "$DATA_DIR" --shell /usr/sbin/nologin "$USER_NAME"
fi
usermod -a -G "$(echo $DEVICE_GROUPS | tr ' ' ',')" "$USER_NAME"

echo "== $PREFIX"
mkdir -p "$P"
# An upgrade replaces the program: files gone from the project must go (the venv stays).
find "$P" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
# The project without its checkout's virtual environment and caches.
tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude='*_cache' \
    --exclude=./tests/artifacts --exclude=./build --exclude='*.egg-info' -cf - . |
    tar -C "$P" -xf -
if [ ! -x "$P/.venv/bin/python" ]; then
    # System packages too: python3-lgpio, the Pi's GPIO library, comes from Debian.
    python3 -m venv --system-site-packages "$P/.venv"
fi
if [ -z "$WHEEL" ]; then
    rm -rf "$P/dist"
    "$P/.venv/bin/pip" wheel --quiet --no-deps --wheel-dir "$P/dist" "$P"
    WHEEL=$(ls "$P"/dist/tableside-*.whl)
fi
# The dependencies as needed, then the program itself always: an upgrade to the same version
# number must still replace the code.
"$P/.venv/bin/pip" install --quiet "$WHEEL"
"$P/.venv/bin/pip" install --quiet --force-reinstall --no-deps "$WHEEL"
# The build's leftovers in the copy.
rm -rf "$P/build" "$P/dist" "$P"/*.egg-info

echo "== settings and journal in $DATA_DIR"
install -d -m 0750 "$D"
chown "$USER_NAME:$USER_NAME" "$D"
if [ ! -f "$D/settings.toml" ]; then
    "$P/.venv/bin/tableside" config init "$D/settings.toml" >/dev/null
    chmod 0640 "$D/settings.toml"
    chown "$USER_NAME:$USER_NAME" "$D/settings.toml"
fi
"$P/.venv/bin/tableside" config check "$D/settings.toml"

echo "== screen"
console_blank_off

echo "== service"
install -d -m 0755 "$U"
install -m 0644 "$SRC/systemd/tableside.service" "$U/tableside.service"
systemctl daemon-reload
systemctl enable tableside.service
# An upgrade takes effect at once when the kiosk runs (nothing happens when it does not).
systemctl try-restart tableside.service
echo "installed: start it with 'systemctl start tableside', follow it with 'journalctl -fu tableside'"
echo "check it with '$PREFIX/.venv/bin/tableside doctor' (docs/install.md)"
echo "at its first start the kiosk asks for the umpire's and the director's PINs (docs/security.md)"
