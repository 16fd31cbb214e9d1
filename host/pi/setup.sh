#!/usr/bin/env bash
# Set up a Raspberry Pi (Raspberry Pi OS Bookworm or later) to run the
# Codenames table on boot: apt packages, a system user, a virtual environment
# with codenames-board in it, the Pico's udev rule, the config and state
# folders, the systemd service and, when the config turns the web page on,
# the drop-in that opens the service's network for it. Run it again at any
# time (after a git pull, after changing [web] in the config): every step
# checks first and changes only what differs.
# See host/pi/README.md; `setup.sh --help` lists the options.
#
# For tests only: CODENAMES_SETUP_MODEL_FILE replaces /proc/device-tree/model,
# and CODENAMES_SETUP_UDEV_UNDER_ROOT=1 makes a --root run talk to the udevadm
# on PATH as if the staging root were a running system.
set -Eeuo pipefail
umask 022

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PROG=$(basename "${BASH_SOURCE[0]}")
ARGS=("$@")

SERVICE=codenames-board
INSTALL_DIR=/opt/codenames-board
VENV=$INSTALL_DIR/venv
STAMP=$INSTALL_DIR/installed-source.sha256
UDEV_RULE=/etc/udev/rules.d/99-codenames-tiles.rules
CONFIG_DIR=/etc/codenames-board
CONFIG=$CONFIG_DIR/config.toml
STATE_DIR=/var/lib/codenames-board
UNIT=/etc/systemd/system/$SERVICE.service
DROPIN=/etc/systemd/system/$SERVICE.service.d/10-user.conf
WEB_DROPIN=/etc/systemd/system/$SERVICE.service.d/20-web.conf
WANTS_LINK=/etc/systemd/system/multi-user.target.wants/$SERVICE.service
COMMAND=$VENV/bin/codenames-board
COMMAND_LINK=/usr/local/bin/codenames-board
MODEL_FILE=${CODENAMES_SETUP_MODEL_FILE:-/proc/device-tree/model}
UDEV_UNDER_ROOT=${CODENAMES_SETUP_UDEV_UNDER_ROOT:-0}
GROUPS_WANTED=(gpio dialout video render input)
DEFAULT_USER=codenames

usage() {
    cat <<EOF
Usage: sudo $PROG [OPTIONS]

Set up this Raspberry Pi to run the Codenames table (codenames-board run) on
boot, as the unprivileged user codenames. Running it twice changes nothing.

  --config       also install a starter $CONFIG
                 (codenames-board config --default), only if there is none:
                 an existing config is never overwritten
  --start        start the service now (restart it if this run changed it);
                 without it the service is enabled and starts on the next boot
  --system-pygame
                 use the system's pygame (apt python3-pygame, built on the
                 system's SDL, which has KMS/DRM) instead of the package
                 index's, whose SDL has none: output = "fullscreen" without a
                 desktop needs KMS/DRM. The quick way on Raspberry Pi OS Lite;
                 later runs keep it
  --pygame-from-source
                 if pygame's own SDL has no KMS/DRM driver (the wheels from the
                 package index, on 64-bit Raspberry Pi OS), build pygame on
                 this system's SDL, which has it (minutes on a Pi 4, long on a
                 Zero 2 W; --system-pygame is quicker)
  --web          open the service's network for the web page (a drop-in,
                 $SERVICE.service.d/20-web.conf, with the config's [web]
                 port) even if the config does not turn the page on
  --no-web       keep the service without network even if the config turns
                 the page on (the table then cannot start with it). Without
                 either, the config's [web] enabled decides at every run:
                 after turning the page on or off, run this again
  --rpi-gpio     also install RPi.GPIO (apt python3-rpi.gpio), on a Pi where it
                 works (Pi 1 to 4, 400, Zero, Zero 2 W, Compute Module 1 to 4);
                 the table does not need it: gpiozero uses lgpio on every Pi
  --user NAME    run the table as NAME (default: $DEFAULT_USER; never root)
  --source DIR   the codenames-board checkout to install (default: $(cd "$SCRIPT_DIR/../.." && pwd))
  --dry-run      print every action, change nothing (works without root)
  --root DIR     install into the staging root DIR instead of / (an image, a
                 test): files and folders only, no apt, no user, no udevadm,
                 no systemctl (the service is enabled by its symlink; the apt
                 step says which packages the Pi needs)
  --with-venv    with --root: make the virtual environment there too (for
                 tests: a virtual environment cannot be moved, so an image
                 gets its own on the Pi)
  -h, --help     this text

Each step prints one line: ok (nothing to do), changed, planned (--dry-run)
or skipped; a step that needs a running udev or systemd and finds none says
so on its line and what does it instead (a reboot, mostly). Afterwards
codenames-board is on PATH ($COMMAND_LINK).
Environment: PYTHON, the Python that makes the virtual environment (default:
python3).
Exit codes: 0 done, 1 a step failed, 2 wrong usage (an unknown option, not root).
EOF
}

die_usage() {
    printf '%s: %s\n' "$PROG" "$1" >&2
    exit 2
}

# --- options -----------------------------------------------------------------

DRY_RUN=0
ROOT=""
ROOT_GIVEN=0
RUN_USER=$DEFAULT_USER
SOURCE=""
INSTALL_CONFIG=0
WITH_VENV=0
START=0
PYGAME_FROM_SOURCE=0
SYSTEM_PYGAME=0
RPI_GPIO=0
WEB="" # --web or --no-web; empty: the config decides
PYTHON=${PYTHON:-python3}

while (($#)); do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --config) INSTALL_CONFIG=1 ;;
        --start) START=1 ;;
        --with-venv) WITH_VENV=1 ;;
        --pygame-from-source) PYGAME_FROM_SOURCE=1 ;;
        --system-pygame) SYSTEM_PYGAME=1 ;;
        --rpi-gpio) RPI_GPIO=1 ;;
        --web | --no-web)
            [[ -z $WEB || $WEB == "$1" ]] || die_usage "--web and --no-web: choose one"
            WEB=$1
            ;;
        --root | --user | --source)
            (($# >= 2)) || die_usage "$1 needs a value (see --help)"
            case $1 in
                --root) ROOT=$2 ROOT_GIVEN=1 ;;
                --user) RUN_USER=$2 ;;
                --source) SOURCE=$2 ;;
            esac
            shift
            ;;
        --root=*) ROOT=${1#*=} ROOT_GIVEN=1 ;;
        --user=*) RUN_USER=${1#*=} ;;
        --source=*) SOURCE=${1#*=} ;;
        -h | --help)
            usage
            exit 0
            ;;
        *) die_usage "unknown option: $1 (see --help)" ;;
    esac
    shift
done

if ((!ROOT_GIVEN && !DRY_RUN && EUID != 0)); then
    die_usage "setting up the Pi needs root: sudo $0${ARGS[*]:+ ${ARGS[*]}} (or --dry-run to see what it would do)"
fi
if ((ROOT_GIVEN)); then
    [[ -n $ROOT && -d $ROOT ]] || die_usage "--root $ROOT: no such folder"
    ROOT=$(cd "$ROOT" && pwd)
    [[ $ROOT != / ]] || die_usage "--root /: leave --root out to set up this Pi itself"
fi
((WITH_VENV == 0 || ROOT_GIVEN)) || die_usage "--with-venv goes with --root (without --root the virtual environment is always made)"
((!SYSTEM_PYGAME || !PYGAME_FROM_SOURCE)) || die_usage "--system-pygame and --pygame-from-source: choose one (--system-pygame is quicker)"
[[ $RUN_USER =~ ^[a-z_][a-z0-9_-]*$ ]] || die_usage "--user $RUN_USER: not a user name"
[[ $RUN_USER != root ]] || die_usage "--user root: the table never runs as root"
SOURCE=${SOURCE:-$SCRIPT_DIR/../..}
[[ -d $SOURCE ]] || die_usage "--source $SOURCE: no such folder"
SOURCE=$(cd "$SOURCE" && pwd)
for needed in pyproject.toml host/codenames_board host/pi/$SERVICE.service host/pi/web.conf host/pi/99-codenames-tiles.rules; do
    [[ -e $SOURCE/$needed ]] || die_usage "--source $SOURCE: not a codenames-board checkout (no $needed)"
done

# --- reporting ---------------------------------------------------------------

STEP=""
COUNT_OK=0
COUNT_CHANGED=0
COUNT_SKIPPED=0
CHANGED_RUNTIME=0 # the package, the unit or the udev rule changed: a running service is out of date

report() { # report STATE MESSAGE: the one status line of a step
    local state=$1
    if [[ $state == changed ]]; then
        COUNT_CHANGED=$((COUNT_CHANGED + 1))
        ((DRY_RUN)) && state=planned
    elif [[ $state == ok ]]; then
        COUNT_OK=$((COUNT_OK + 1))
    else
        COUNT_SKIPPED=$((COUNT_SKIPPED + 1))
    fi
    printf '%-8s %s\n' "$state" "$2"
}

note() { printf '         note: %s\n' "$*"; }

on_error() {
    printf 'failed   %s (%s line %s)\n' "${STEP:-setup}" "$PROG" "$1" >&2
    exit 1
}
trap 'on_error $LINENO' ERR

quoted() { # the words as a shell would read them back, quoted only where needed
    local word out=""
    for word in "$@"; do
        if [[ ! $word =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then
            word="'${word//\'/\'\\\'\'}'"
        fi
        out+="${out:+ }$word"
    done
    printf '%s' "$out"
}

run() { # run COMMAND...: print it, and run it unless this is a dry run
    if ((DRY_RUN)); then
        printf '         would run: %s\n' "$(quoted "$@")"
    else
        printf '         + %s\n' "$(quoted "$@")"
        "$@"
    fi
}

# --- helpers -------------------------------------------------------------------

path() { printf '%s%s' "$ROOT" "$1"; } # a path under the staging root (or /)

same_content() { [[ -f $2 && ! -L $2 ]] && cmp -s "$1" "$2"; }

# install_file SRC DEST MODE: copy SRC to DEST (under the root) unless it is
# already there with the same bytes; the mode is fixed if only it differs.
# Sets FILE_STATE to ok or changed.
install_file() {
    local src=$1 dest mode=$3
    dest=$(path "$2")
    if same_content "$src" "$dest"; then
        if [[ $(stat -c %a "$dest") != "${mode#0}" ]]; then
            run chmod "$mode" "$dest"
            FILE_STATE=changed
        else
            FILE_STATE=ok
        fi
        return 0
    fi
    if ((DRY_RUN)); then
        printf '         would install: %s -> %s\n' "$src" "$dest"
    else
        printf '         + install %s -> %s\n' "$src" "$dest"
        mkdir -p "$(dirname "$dest")"
        local tmp
        tmp=$(mktemp "$dest.XXXXXX")
        if ! { cat "$src" >"$tmp" && chmod "$mode" "$tmp" && mv -f "$tmp" "$dest"; }; then
            rm -f "$tmp" # nothing half-written is left beside the file
            on_error "$LINENO"
        fi
    fi
    FILE_STATE=changed
}

# ensure_dir DIR MODE [OWNER]: the folder exists with that mode (and owner
# user:group). Sets DIR_STATE to ok or changed.
ensure_dir() {
    local dir mode=$2 owner=${3:-}
    dir=$(path "$1")
    DIR_STATE=ok
    if [[ ! -d $dir ]]; then
        run mkdir -p "$dir"
        DIR_STATE=changed
    fi
    if [[ ! -d $dir ]] || [[ $(stat -c %a "$dir") != "${mode#0}" ]]; then
        run chmod "$mode" "$dir"
        DIR_STATE=changed
    fi
    if [[ -n $owner ]] && { [[ ! -d $dir ]] || [[ $(stat -c %U:%G "$dir") != "$owner" ]]; }; then
        run chown "$owner" "$dir"
        DIR_STATE=changed
    fi
}

package_installed() { [[ $(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null) == ii* ]]; }

apt_has() { apt-cache show "$1" >/dev/null 2>&1; } # in the package lists

pi_model() { tr -d '\0' 2>/dev/null <"$MODEL_FILE" || true; } # "Raspberry Pi 4 Model B Rev 1.4", or nothing

# What the GPIO needs on this model. gpiozero's first choice of pin factory is
# lgpio, which works on every Pi (and is the only one on a Pi 5); the table
# imports nothing else. RPi.GPIO only with --rpi-gpio and only where it works:
# it pokes the BCM283x's registers through /dev/gpiomem, which a Pi 5 (RP1)
# does not have. Sets MODEL (without its revision), GPIO_RPI (1 or 0) and
# GPIO_WHY (what was chosen, and why, for the report).
gpio_plan() {
    MODEL=$(pi_model)
    MODEL=${MODEL% Rev *}
    GPIO_RPI=0
    local rpi_gpio_works=0
    if [[ $MODEL =~ ^Raspberry\ Pi\ (Model\ |[234]\ Model\ |400([^0-9]|$)|Zero|Compute\ Module\ ([1-4]|Rev)) ]]; then
        rpi_gpio_works=1
    fi
    GPIO_WHY="lgpio (gpiozero's pin factory on every Pi)"
    if ((!RPI_GPIO)); then
        GPIO_WHY+=", no RPi.GPIO (the table does not need it; --rpi-gpio)"
    elif ((rpi_gpio_works)); then
        GPIO_RPI=1
        GPIO_WHY+=" and RPi.GPIO (--rpi-gpio, works on a $MODEL)"
    elif [[ -n $MODEL ]]; then
        GPIO_WHY+=", no RPi.GPIO: it does not work on a $MODEL (--rpi-gpio ignored)"
    else
        GPIO_WHY+=", no RPi.GPIO: not a Raspberry Pi (no $MODEL_FILE; --rpi-gpio ignored)"
    fi
}

existing_groups() {
    local group
    for group in "${GROUPS_WANTED[@]}"; do
        if getent group "$group" >/dev/null; then printf '%s\n' "$group"; fi
    done
}

# The hash of what pip installs: pyproject.toml, the package and the firmware.
source_hash() {
    (
        cd "$SOURCE"
        find pyproject.toml host/codenames_board firmware -type f \
            ! -path '*/__pycache__/*' ! -name '*.pyc' ! -path '*.egg-info/*' -print0 |
            LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1
    )
}

source_version() { # pyproject.toml's version, or the package's __version__ when it is dynamic
    local version
    version=$(sed -n 's/^version *= *"\(.*\)"/\1/p' "$SOURCE/pyproject.toml" | head -n 1)
    [[ -n $version ]] || version=$(sed -n 's/^__version__ *= *"\(.*\)"/\1/p' "$SOURCE/host/codenames_board/__init__.py" | head -n 1)
    printf '%s' "${version:-unknown}"
}

systemd_running() { [[ -d /run/systemd/system ]]; } # sd_booted()

# Is a udev daemon answering? Not in a chroot, a container or an emulated
# system without one; then udev reads the rules when it starts (at boot).
udev_running() {
    command -v udevadm >/dev/null 2>&1 && udevadm control --ping --timeout=5 >/dev/null 2>&1
}

# Has the venv a pygame of its own (from the package index, or built here),
# rather than the system's (--system-pygame)?
venv_has_own_pygame() { compgen -G "$1/lib/python3*/site-packages/pygame/__init__.py" >/dev/null; }

# The system's pygame in use: asked for, or kept from an earlier --system-pygame run.
uses_system_pygame() {
    local venv=$1
    ((SYSTEM_PYGAME)) && return 0
    [[ -x $venv/bin/python ]] && ! venv_has_own_pygame "$venv" &&
        "$venv/bin/python" -c 'import pygame' >/dev/null 2>&1
}

# --- steps ---------------------------------------------------------------------

BASE_PACKAGES=(python3-venv python3-dev libsdl2-2.0-0 libsdl2-ttf-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0)

step_packages() {
    STEP="apt packages"
    local wanted=("${BASE_PACKAGES[@]}" python3-lgpio)
    ((GPIO_RPI)) && wanted+=(python3-rpi.gpio)
    ((SYSTEM_PYGAME)) && wanted+=(python3-pygame)
    if ((ROOT_GIVEN)); then
        report skipped "apt packages: not with --root; ${MODEL:-the Pi} needs ${wanted[*]}"
        return 0
    fi
    if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
        printf 'failed   apt packages: no apt-get here: this script is for Raspberry Pi OS\n' >&2
        exit 1
    fi
    [[ -n $MODEL ]] || note "this does not look like a Raspberry Pi (no $MODEL_FILE)"
    # rpi-lgpio (RPi.GPIO's API on lgpio, Raspberry Pi OS's choice on a Pi 5)
    # conflicts with python3-rpi.gpio and gives the same module: keep it.
    if ((GPIO_RPI)) && package_installed python3-rpi-lgpio; then
        wanted=("${wanted[@]/python3-rpi.gpio/python3-rpi-lgpio}")
    fi
    # Plain Debian has no python3-lgpio (Raspberry Pi OS has): the GPIO step
    # then puts lgpio into the venv with pip. RPi.GPIO only ever from apt.
    local missing=() package elsewhere=""
    for package in "${wanted[@]}"; do
        package_installed "$package" && continue
        if [[ $package == python3-lgpio || $package == python3-rpi.gpio ]] &&
            compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null && ! apt_has "$package"; then
            elsewhere+=$(not_in_lists "$package")
            continue
        fi
        missing+=("$package")
    done
    if ((${#missing[@]} == 0)); then
        report ok "apt packages: all installed$elsewhere"
        return 0
    fi
    run apt-get update
    local install=()
    for package in "${missing[@]}"; do
        if ((DRY_RUN)) || apt_has "$package"; then
            install+=("$package")
        elif [[ $package == python3-lgpio || $package == python3-rpi.gpio ]]; then
            elsewhere+=$(not_in_lists "$package")
        else
            printf 'failed   apt packages: not in the package lists: %s (it comes with Raspberry Pi OS Bookworm or later)\n' "$package" >&2
            exit 1
        fi
    done
    if ((${#install[@]} == 0)); then
        report ok "apt packages: all installed$elsewhere"
        return 0
    fi
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${install[@]}"
    report changed "apt packages: installed ${install[*]}$elsewhere"
}

not_in_lists() { # the report's words for an optional package apt does not have
    if [[ $1 == python3-lgpio ]]; then
        printf '; no python3-lgpio in the package lists: lgpio comes from the package index'
    else
        printf '; no python3-rpi.gpio in the package lists: no RPi.GPIO'
    fi
}

step_user() {
    STEP="user $RUN_USER"
    if ((ROOT_GIVEN)); then
        report skipped "user $RUN_USER: not with --root"
        return 0
    fi
    local groups=() missing_groups=() group
    mapfile -t groups < <(existing_groups)
    for group in "${GROUPS_WANTED[@]}"; do
        getent group "$group" >/dev/null || missing_groups+=("$group")
    done
    if ((${#missing_groups[@]})); then
        note "no group ${missing_groups[*]} here: the service names them all in SupplementaryGroups= and does not start while one is missing (add it: groupadd --system NAME)"
    fi
    local group_list
    group_list=$(
        IFS=,
        printf '%s' "${groups[*]}"
    )
    if ! id -u "$RUN_USER" >/dev/null 2>&1; then
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Codenames table" \
            ${group_list:+--groups "$group_list"} "$RUN_USER"
        report changed "user $RUN_USER: created (system user, groups: ${groups[*]:-none})"
        return 0
    fi
    if [[ $(id -u "$RUN_USER") == 0 ]]; then
        printf 'failed   user %s: has uid 0: the table never runs as root\n' "$RUN_USER" >&2
        exit 1
    fi
    local current add=()
    current=" $(id -nG "$RUN_USER") "
    for group in "${groups[@]}"; do
        [[ $current == *" $group "* ]] || add+=("$group")
    done
    if ((${#add[@]})); then
        run usermod --append --groups "$(
            IFS=,
            printf '%s' "${add[*]}"
        )" "$RUN_USER"
        report changed "user $RUN_USER: added to ${add[*]}"
    else
        report ok "user $RUN_USER: exists, in ${groups[*]:-no extra groups}"
    fi
}

step_venv() {
    STEP="virtual environment"
    local venv
    venv=$(path "$VENV")
    if ((ROOT_GIVEN && !WITH_VENV)); then
        report skipped "virtual environment $venv: not with --root (add --with-venv)"
        return 0
    fi
    if [[ ! -x $venv/bin/python ]]; then
        run "$PYTHON" -m venv --system-site-packages "$venv"
        report changed "virtual environment $venv: made (it sees the system's GPIO packages)"
    elif ! grep -Eq '^include-system-site-packages *= *true' "$venv/pyvenv.cfg" 2>/dev/null; then
        run "$PYTHON" -m venv --system-site-packages "$venv"
        report changed "virtual environment $venv: now sees the system's GPIO packages"
    elif ! "$venv/bin/python" -c '' 2>/dev/null; then
        # A Python upgrade (a new Raspberry Pi OS release) breaks the old one.
        run "$PYTHON" -m venv --clear --system-site-packages "$venv"
        run rm -f "$(path "$STAMP")"
        report changed "virtual environment $venv: made anew (its Python no longer ran)"
    else
        report ok "virtual environment $venv: present, sees the system's packages"
    fi
}

step_package() {
    STEP="codenames-board package"
    local venv stamp hash version
    venv=$(path "$VENV")
    stamp=$(path "$STAMP")
    if ((ROOT_GIVEN && !WITH_VENV)); then
        report skipped "codenames-board package: not with --root (add --with-venv)"
        return 0
    fi
    hash=$(source_hash)
    version=$(source_version)
    if [[ -x $venv/bin/codenames-board && -f $stamp && $(<"$stamp") == "$hash" ]]; then
        report ok "codenames-board $version: installed from this source (${hash:0:12})"
        return 0
    fi
    # pip builds in the folder it is given: a copy keeps root's build files out
    # of the checkout.
    local stage=""
    if ((DRY_RUN)); then
        printf '         would copy pyproject.toml, README.md, LICENSE, host/codenames_board, firmware from %s to a temporary folder\n' "$SOURCE"
    else
        stage=$(mktemp -d)
        # shellcheck disable=SC2064 # expand now: the folder is this run's
        trap "rm -rf '$stage'" EXIT
        mkdir -p "$stage/host"
        cp -R "$SOURCE/pyproject.toml" "$SOURCE/README.md" "$SOURCE/LICENSE" "$SOURCE/firmware" "$stage/"
        cp -R "$SOURCE/host/codenames_board" "$stage/host/"
    fi
    local pip=("$venv/bin/python" -m pip install --disable-pip-version-check --no-input --upgrade)
    local package=("${pip[@]}") others=() also=""
    if uses_system_pygame "$venv"; then
        # The system's pygame may be older than pyproject.toml asks for
        # (Bookworm's is 2.1.2): the package without its dependencies, then
        # every other dependency by name, so that pip leaves pygame alone.
        mapfile -t others < <(system_pygame_dependencies)
        package+=(--no-deps)
        also=", with the system's pygame"
    fi
    if ((DRY_RUN)); then
        printf '         would run: %s <that folder>\n' "$(quoted "${package[@]}")"
        ((${#others[@]} == 0)) || printf '         would run: %s\n' "$(quoted "${pip[@]}" "${others[@]}")"
        printf '         would write: %s (%s)\n' "$stamp" "${hash:0:12}"
    else
        run "${package[@]}" "$stage"
        ((${#others[@]} == 0)) || run "${pip[@]}" "${others[@]}"
        printf '%s\n' "$hash" >"$stamp"
    fi
    CHANGED_RUNTIME=1
    report changed "codenames-board $version: installed from $SOURCE (${hash:0:12})$also"
}

# The package's dependencies (pyproject.toml), less pygame: one a line.
system_pygame_dependencies() {
    "$PYTHON" - "$SOURCE/pyproject.toml" <<'EOF'
import re, sys, tomllib
with open(sys.argv[1], "rb") as file:
    for requirement in tomllib.load(file)["project"]["dependencies"]:
        if re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0].lower() != "pygame":
            print(requirement)
EOF
}

pygame_version() { "$1" -c 'import importlib.metadata as m; print(m.version("pygame"))' 2>/dev/null || printf 'unknown'; }

# Does the venv's pygame use an SDL with the KMS/DRM video driver? Prints
# the SDL library's path, then yes or no.
sdl_has_kmsdrm() {
    PYGAME_HIDE_SUPPORT_PROMPT=1 "$1" - 2>/dev/null <<'EOF'
import re
import pygame  # loads SDL: /proc/self/maps then names the library in use
paths = sorted({line.split()[-1] for line in open("/proc/self/maps") if re.search(r"/libSDL2-2[^/]*$", line.strip())})
found = [path for path in paths if b"kmsdrm" in open(path, "rb").read().lower()]
print(paths[0] if paths else "no SDL library")
print("yes" if found else "no")
EOF
}

step_gpio() {
    STEP="GPIO packages"
    local venv python
    venv=$(path "$VENV")
    python=$venv/bin/python
    if ((ROOT_GIVEN && !WITH_VENV)); then
        report skipped "GPIO packages: not with --root (add --with-venv); ${MODEL:-a Raspberry Pi} gets $GPIO_WHY"
        return 0
    fi
    if [[ -z $MODEL ]]; then
        report skipped "GPIO packages: not a Raspberry Pi (no $MODEL_FILE): no lgpio; off a Pi, GPIOZERO_PIN_FACTORY=mock"
        return 0
    fi
    local found=() lacking=""
    if [[ -x $python ]] && "$python" -c 'import lgpio' >/dev/null 2>&1; then found+=(lgpio); fi
    if ((GPIO_RPI)); then
        if [[ -x $python ]] && "$python" -c 'import importlib.util as u, sys; sys.exit(u.find_spec("RPi.GPIO") is None)' >/dev/null 2>&1; then
            found+=(RPi.GPIO)
        elif ((!DRY_RUN)); then
            lacking="; RPi.GPIO is missing (apt python3-rpi.gpio, from Raspberry Pi OS)"
        fi
    fi
    if [[ ${found[0]:-} == lgpio ]]; then
        report ok "GPIO packages: ${found[*]} importable in the venv$lacking; for a $MODEL: $GPIO_WHY"
        return 0
    fi
    if ((DRY_RUN && !ROOT_GIVEN)) && apt_has python3-lgpio; then
        report ok "GPIO packages: lgpio comes with apt's python3-lgpio (see apt packages); for a $MODEL: $GPIO_WHY"
        return 0
    fi
    # No python3-lgpio from apt (plain Debian): lgpio from the package index
    # by name (wheels for 64-bit ARM), not through an extra of the package.
    run "$python" -m pip install --disable-pip-version-check --no-input "lgpio>=0.2"
    CHANGED_RUNTIME=1
    report changed "GPIO packages: lgpio installed into the venv with pip$lacking; for a $MODEL: $GPIO_WHY"
}

step_command_link() {
    STEP="command"
    local link
    link=$(path "$COMMAND_LINK")
    if [[ -L $link && $(readlink "$link") == "$COMMAND" ]]; then
        report ok "command $link: links to $COMMAND"
    elif [[ -e $link || -L $link ]]; then
        report skipped "command $link: something else is there, left alone: remove it and run this again to get codenames-board on PATH"
    else
        [[ -d $(dirname "$link") ]] || run mkdir -p "$(dirname "$link")"
        run ln -s "$COMMAND" "$link"
        report changed "command $link -> $COMMAND: codenames-board is on PATH"
    fi
}

step_display_driver() {
    STEP="display driver"
    local venv python
    venv=$(path "$VENV")
    python=$venv/bin/python
    if ((ROOT_GIVEN && !WITH_VENV)); then
        report skipped "display driver: not with --root (add --with-venv)"
        return 0
    fi
    local switched=0
    if ((SYSTEM_PYGAME)) && [[ -x $python ]] && venv_has_own_pygame "$venv"; then
        # The venv's own pygame (from the package index) would hide the system's.
        run "$python" -m pip uninstall --disable-pip-version-check --no-input --yes pygame
        CHANGED_RUNTIME=1
        switched=1
        if ((DRY_RUN)); then
            report changed "display driver: the venv's own pygame goes, the system's (python3-pygame) takes its place"
            return 0
        fi
    fi
    if [[ ! -x $python ]] || ! "$python" -c 'import pygame' >/dev/null 2>&1; then
        report skipped "display driver: checked once pygame is installed"
        return 0
    fi
    local answer library state=ok what
    what="pygame $(pygame_version "$python")"
    if ((switched)); then
        state=changed
        what="the system's $what now, not the venv's own:"
    elif ! venv_has_own_pygame "$venv"; then
        what="the system's $what (python3-pygame, --system-pygame):"
    else
        what+=":"
    fi
    mapfile -t answer < <(sdl_has_kmsdrm "$python")
    library=${answer[0]:-unknown}
    if [[ ${answer[1]:-no} == yes ]]; then
        report "$state" "display driver: $what its SDL ($library) has KMS/DRM: fullscreen works without a desktop"
        return 0
    fi
    if ((!PYGAME_FROM_SOURCE)); then
        report skipped "display driver: $what its SDL ($library) has no KMS/DRM: fullscreen only under a desktop"
        note "rerun with --system-pygame (quick) or --pygame-from-source (slow) for KMS/DRM, or use a framebuffer (host/pi/README.md)"
        return 0
    fi
    if ((!ROOT_GIVEN)); then
        local wanted=(build-essential pkg-config libsdl2-dev libsdl2-image-dev libsdl2-mixer-dev libsdl2-ttf-dev
            libfreetype-dev libportmidi-dev libjpeg-dev) missing=() package
        for package in "${wanted[@]}"; do
            package_installed "$package" || missing+=("$package")
        done
        if ((${#missing[@]})); then
            run apt-get update
            run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
        fi
    fi
    local version
    version=$(pygame_version "$python")
    run "$python" -m pip install --disable-pip-version-check --no-input --force-reinstall --no-deps \
        --no-binary pygame "pygame==$version"
    if ((!DRY_RUN)); then
        mapfile -t answer < <(sdl_has_kmsdrm "$python")
        if [[ ${answer[1]:-no} != yes ]]; then
            printf 'failed   display driver: pygame %s built on %s, which has no KMS/DRM either\n' "$version" "${answer[0]:-unknown}" >&2
            exit 1
        fi
        library=${answer[0]}
    fi
    CHANGED_RUNTIME=1
    report changed "display driver: pygame $version built on this system's SDL ($library), which has KMS/DRM"
}

# udev reads a new rule at its next event, but only a trigger applies it to
# a Pico that is plugged in already. Both happen on every run while udev
# runs (cheap: the USB serial ports only), so that a rule installed while
# udev was not running (a chroot, an emulated system) is applied by the next
# run, although the file is then up to date.
step_udev() {
    STEP="udev rule"
    local rule what
    rule=$(path "$UDEV_RULE")
    install_file "$SOURCE/host/pi/99-codenames-tiles.rules" "$UDEV_RULE" 0644
    if [[ $FILE_STATE == changed ]]; then what=installed; else what="up to date"; fi
    if ((ROOT_GIVEN && !UDEV_UNDER_ROOT)); then
        report "$FILE_STATE" "udev rule $rule: $what (no udevadm with --root: udev reads it at boot)"
    elif ! udev_running; then
        report "$FILE_STATE" "udev rule $rule: $what; udev is not running here, so not applied: a reboot does it (or run this again once udev runs)"
    else
        run udevadm control --reload
        run udevadm trigger --action=change --subsystem-match=tty --sysname-match='ttyACM*'
        [[ $FILE_STATE == ok ]] || CHANGED_RUNTIME=1
        report "$FILE_STATE" "udev rule $rule: $what, applied (udev reloaded, USB serial ports triggered): a Pico plugged in is /dev/codenames-tiles"
    fi
}

step_config_dir() {
    STEP="config folder"
    ensure_dir "$CONFIG_DIR" 0755
    local what=made
    [[ $DIR_STATE == changed ]] || what=present
    report "$DIR_STATE" "config folder $(path "$CONFIG_DIR"): $what"
}

step_state_dir() {
    STEP="state folder"
    local owner="" group
    if ((!ROOT_GIVEN)); then
        group=$(id -gn "$RUN_USER" 2>/dev/null || printf '%s' "$RUN_USER")
        owner=$RUN_USER:$group
    fi
    ensure_dir "$STATE_DIR" 0750 "$owner"
    local what=made
    [[ $DIR_STATE == changed ]] || what=present
    if [[ -n $owner ]]; then
        report "$DIR_STATE" "state folder $STATE_DIR: $what, owned by $owner"
    else
        report "$DIR_STATE" "state folder $(path "$STATE_DIR"): $what (systemd gives it to the user at the first start)"
    fi
}

step_config() {
    STEP="config"
    local config venv
    config=$(path "$CONFIG")
    venv=$(path "$VENV")
    if [[ -e $config ]]; then
        if ((INSTALL_CONFIG)); then
            report ok "config $config: present, kept (never overwritten)"
        else
            report ok "config $config: present"
        fi
    elif ((!INSTALL_CONFIG)); then
        report skipped "config $config: none"
        note "the service does not start without it: rerun with --config for a starter one, or write your own"
        return 0
    else
        # The file `codenames-board config --default` prints, straight from the checkout: no
        # Python and no installed package needed (a --root run has neither).
        local starter=$SOURCE/host/codenames_board/default_config.toml
        if ((DRY_RUN)); then
            printf '         would write: %s -> %s\n' "$starter" "$config"
        else
            printf '         + write %s -> %s\n' "$starter" "$config"
            mkdir -p "$(dirname "$config")"
            local tmp
            tmp=$(mktemp "$config.XXXXXX")
            if ! { cat "$starter" >"$tmp" && chmod 0644 "$tmp" && mv -f "$tmp" "$config"; }; then
                rm -f "$tmp" # nothing half-written is left beside the config
                on_error "$LINENO"
            fi
        fi
        report changed "config $config: starter config written (codenames-board config --default)"
    fi
    # The service checks it at every start; say so now rather than at the next boot.
    if ((!DRY_RUN)) && [[ -e $config && -x $venv/bin/codenames-board ]]; then
        local output
        if ! output=$(env -u CODENAMES_BOARD_CONFIG "$venv/bin/codenames-board" config --check --config "$config" 2>&1); then
            note "codenames-board config --check finds mistakes; the service will not start until they are fixed:"
            printf '%s\n' "$output" | sed 's/^/           /'
        fi
    fi
}

step_unit() {
    STEP="systemd unit"
    local changed=0 also=""
    install_file "$SOURCE/host/pi/$SERVICE.service" "$UNIT" 0644
    [[ $FILE_STATE == ok ]] || changed=1
    # The unit names the user codenames; another user is a drop-in, so the
    # unit itself stays exactly the repository's file.
    local dropin
    dropin=$(path "$DROPIN")
    if [[ $RUN_USER != "$DEFAULT_USER" ]]; then
        local group content
        group=$(id -gn "$RUN_USER" 2>/dev/null || printf '%s' "$RUN_USER")
        content=$(printf '# Written by host/pi/setup.sh --user %s\n[Service]\nUser=%s\nGroup=%s\n' "$RUN_USER" "$RUN_USER" "$group")
        if ! [[ -f $dropin && $(<"$dropin") == "$content" ]]; then
            if ((DRY_RUN)); then
                printf '         would write: %s (User=%s)\n' "$dropin" "$RUN_USER"
            else
                printf '         + write %s (User=%s)\n' "$dropin" "$RUN_USER"
                mkdir -p "$(dirname "$dropin")"
                printf '%s\n' "$content" >"$dropin"
                chmod 0644 "$dropin"
            fi
            changed=1
            also=" (runs as $RUN_USER)"
        fi
    elif [[ -e $dropin ]]; then
        run rm -f "$dropin"
        changed=1
        also=" (runs as $DEFAULT_USER again)"
    fi
    if ((!changed)); then
        report ok "systemd unit $(path "$UNIT"): up to date"
        return 0
    fi
    CHANGED_RUNTIME=1
    if ((ROOT_GIVEN)); then
        report changed "systemd unit $(path "$UNIT"): installed$also"
    elif systemd_running; then
        run systemctl daemon-reload
        report changed "systemd unit $UNIT: installed$also, systemd reloaded"
    else
        report changed "systemd unit $UNIT: installed$also; systemd is not running here, so not reloaded: a reboot does it"
    fi
}

# The config's [web] as the table reads it (the checkout's own config module,
# which needs the standard library only): "on PORT ADDRESS SCOPE" (SCOPE
# loopback or network), "off PORT ADDRESS SCOPE", or "error WHY".
web_setting() { # web_setting PYTHON CONFIG
    "$1" -B -S - "$SOURCE/host" "$2" 2>&1 <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
try:
    import ipaddress
    from codenames_board.config import ConfigErrors, parse
except ImportError as error:  # tomllib: Python 3.11 or later
    print(f"error Python {sys.version.split()[0]} cannot read it ({error})")
    raise SystemExit
try:
    with open(sys.argv[2], encoding="utf-8") as file:
        web = parse(file.read(), sys.argv[2]).web
except ConfigErrors:
    print("error it has mistakes (codenames-board config --check says which)")
except (OSError, UnicodeDecodeError) as error:
    print(f"error it cannot be read ({error})")
else:
    scope = "loopback" if ipaddress.ip_address(web.address).is_loopback else "network"
    print("on" if web.enabled else "off", web.port, web.address, scope)
EOF
}

# The web page's drop-in: the repository's web.conf with the config's port
# (and, for a page on the loopback address, the loopback alone), or none.
step_web() {
    STEP="web page"
    local dropin config python line enabled=off port=8080 address=0.0.0.0 scope=network why=""
    dropin=$(path "$WEB_DROPIN")
    config=$(path "$CONFIG")
    python=$(path "$VENV")/bin/python
    [[ -x $python ]] || python=$PYTHON
    if [[ ! -e $config ]]; then
        why="no config"
    elif ! command -v "$python" >/dev/null 2>&1; then
        why="no $python to read it with"
    elif ! line=$(web_setting "$python" "$config") || [[ ! $line =~ ^(on|off)\ [0-9]+\ [^\ ]+\ (loopback|network)$ ]]; then
        line=${line:-no answer}
        why=${line#error }
        why=${why##*$'\n'}
    else
        read -r enabled port address scope <<<"$line"
    fi
    local want=$enabled what
    case $WEB in
        --web) want=on what="on (--web)" ;;
        --no-web) want=off what="off (--no-web)" ;;
        *)
            if [[ $why == "no config" ]]; then
                what="off (no config $config)"
            elif [[ -n $why ]]; then
                report skipped "web page: config $config: $why; the service's network is left as it is (or rerun with --web or --no-web)"
                return 0
            elif [[ $enabled == on ]]; then
                what="on ([web] enabled = true)"
            else
                what="off ([web] enabled = false)"
            fi
            ;;
    esac
    if [[ $WEB == --web && $enabled != on ]]; then
        note "the config does not turn the page on ([web] enabled = true): the network is open, the page stays off"
    elif [[ $WEB == --no-web && $enabled == on ]]; then
        note "the config turns the page on: the table will not start until [web] enabled = false or a run without --no-web"
    fi
    local state=ok message
    if [[ $want == on ]]; then
        local bind="tcp:$port" listens="TCP port $port" reaches="the local network only" content
        if ((port == 0)); then bind=tcp listens="any TCP port ([web] port = 0)"; fi
        content="# Written by host/pi/setup.sh from host/pi/web.conf for [web] port = $port, address = $address"$'\n'
        if [[ $scope == loopback ]]; then
            # Listening on the loopback: this machine alone talks to it.
            reaches="this machine only ([web] address = $address)"
            content+=$(sed -e "s/^SocketBindAllow=tcp:8080\$/SocketBindAllow=$bind/" \
                -e '/^IPAddressAllow=/{/^IPAddressAllow=127\.0\.0\.0\/8 /!d}' "$SOURCE/host/pi/web.conf")
        else
            content+=$(sed -e "s/^SocketBindAllow=tcp:8080\$/SocketBindAllow=$bind/" "$SOURCE/host/pi/web.conf")
        fi
        if ! [[ -f $dropin && ! -L $dropin && $(<"$dropin") == "$content" ]]; then
            if ((DRY_RUN)); then
                printf '         would write: %s (from %s, %s)\n' "$dropin" "$SOURCE/host/pi/web.conf" "$bind"
            else
                printf '         + write %s (from %s, %s)\n' "$dropin" "$SOURCE/host/pi/web.conf" "$bind"
                mkdir -p "$(dirname "$dropin")"
                local tmp
                tmp=$(mktemp "$dropin.XXXXXX")
                if ! { printf '%s\n' "$content" >"$tmp" && chmod 0644 "$tmp" && mv -f "$tmp" "$dropin"; }; then
                    rm -f "$tmp" # nothing half-written is left beside the drop-in
                    on_error "$LINENO"
                fi
            fi
            state=changed
        fi
        message="web page: $what: the service may listen on $listens and reach $reaches ($dropin)"
    else
        message="web page: $what: the service has no network"
        if [[ -e $dropin || -L $dropin ]]; then
            run rm -f "$dropin"
            state=changed
            message="web page: $what: $dropin removed, the service has no network again"
        fi
    fi
    if [[ $state == ok ]]; then
        # Without a config the service does not start: nothing to open or close.
        if [[ $why == "no config" && -z $WEB ]]; then state=skipped; fi
        report "$state" "$message"
        return 0
    fi
    CHANGED_RUNTIME=1
    if ((ROOT_GIVEN)); then
        report changed "$message"
    elif systemd_running; then
        run systemctl daemon-reload
        report changed "$message; systemd reloaded"
    else
        report changed "$message; systemd is not running here, so not reloaded: a reboot does it"
    fi
}

step_enable() {
    STEP="enable"
    # systemctl enables a unit without a running systemd too (it writes the
    # links); where there is no systemctl at all, the link is made by hand.
    if ((ROOT_GIVEN)) || ! command -v systemctl >/dev/null 2>&1; then
        local link
        link=$(path "$WANTS_LINK")
        if [[ -L $link && $(readlink "$link") == "$UNIT" ]]; then
            report ok "enabled: $link"
        else
            run mkdir -p "$(dirname "$link")"
            run ln -sfn "$UNIT" "$link"
            report changed "enabled: $link -> $UNIT"
        fi
        return 0
    fi
    if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
        report ok "service $SERVICE: enabled (starts on boot)"
    else
        run systemctl enable "$SERVICE"
        report changed "service $SERVICE: enabled (starts on boot)"
    fi
}

step_start() {
    STEP="start"
    if ((ROOT_GIVEN)); then
        report skipped "start: not with --root"
        return 0
    fi
    local active=0
    if systemd_running && systemctl is-active --quiet "$SERVICE"; then active=1; fi
    if ((!START)); then
        report skipped "start: not asked for (--start; otherwise it starts on the next boot)"
        if ((active && CHANGED_RUNTIME)); then
            note "the running service is out of date: sudo systemctl restart $SERVICE"
        fi
        return 0
    fi
    if ! systemd_running; then
        report skipped "start: systemd is not running here, so not started: it starts at the next boot"
    elif ((active && CHANGED_RUNTIME)); then
        run systemctl restart "$SERVICE"
        report changed "service $SERVICE: restarted with this version"
    elif ((active)); then
        report ok "service $SERVICE: running"
    else
        run systemctl start "$SERVICE"
        report changed "service $SERVICE: started"
    fi
}

# --- main ----------------------------------------------------------------------

main() {
    local where="this system"
    ((ROOT_GIVEN)) && where="the staging root $ROOT"
    if ((DRY_RUN)); then
        printf 'codenames-board setup of %s, from %s: dry run, nothing is changed\n' "$where" "$SOURCE"
    else
        printf 'codenames-board setup of %s, from %s\n' "$where" "$SOURCE"
    fi
    if ((!ROOT_GIVEN)) && [[ -r /etc/os-release ]]; then
        local codename
        codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
        case $codename in
            stretch | buster | bullseye) note "this is $codename: the setup is made for Raspberry Pi OS Bookworm or later" ;;
        esac
    fi
    gpio_plan
    step_packages
    step_user
    step_venv
    step_package
    step_gpio
    step_command_link
    step_display_driver
    step_udev
    step_config_dir
    step_state_dir
    step_config
    step_unit
    step_web
    step_enable
    step_start
    STEP=""
    if ((DRY_RUN)); then
        printf 'dry run: %d planned, %d ok, %d skipped; nothing was changed\n' "$COUNT_CHANGED" "$COUNT_OK" "$COUNT_SKIPPED"
    else
        printf 'done: %d changed, %d ok, %d skipped\n' "$COUNT_CHANGED" "$COUNT_OK" "$COUNT_SKIPPED"
    fi
}

main
