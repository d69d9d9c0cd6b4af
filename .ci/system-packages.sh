#!/usr/bin/env bash
# Debian packages the tests need: a browser for the UI tests, PocketSphinx for real recognition, curl and a secret
# service (GNOME Keyring in a private D-Bus session) for the security tests,
# PulseAudio for the virtual sound device, ffmpeg for video containers, ALSA headers to build naudiodon, FUSE and
# Debian's pyfuse3 for the power-cut file system of the durability test; python3-onnx and python3-numpy for the tiny
# random-weight models scripts/tiny-models/make_tiny_models.py makes for the model tests; an X server (Xvfb,
# x11-utils), xdotool, xclip, Tk (python3-tk: a real X text field) and the keyboard hook's X libraries for the
# dictate-anywhere test; PostgreSQL (15 or newer) for the store's PostgreSQL backend (the tests start private servers
# of their own; none is left running).
set -euo pipefail
packages=(chromium pocketsphinx pocketsphinx-en-us libpocketsphinx3 pulseaudio pulseaudio-utils libasound2-plugins
  libasound2-dev ffmpeg sox curl gnome-keyring dbus-daemon fuse3 python3-pyfuse3 python3-onnx python3-numpy xvfb x11-utils
  xdotool xclip python3-tk libxtst6 libxkbcommon-x11-0 postgresql)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
