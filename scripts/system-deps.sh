#!/usr/bin/env bash
# The system packages the test suite needs, from Debian's archive, installed when missing (as root):
#   git, make            the build, and the git transport's tests (real repositories)
#   chromium             the replay page's browser tests (Playwright drives it; no browser is downloaded)
#   dovecot-*, opensmtpd the mail transport's tests: real IMAP/LMTP/submission and SMTP servers on loopback,
#                        started and stopped by the tests from throwaway configuration (never as services)
#   faketime             make test-future: the whole suite with the clock 400 days ahead
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
missing=()
command -v git >/dev/null 2>&1 || missing+=(git)
command -v make >/dev/null 2>&1 || missing+=(make)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/sbin/dovecot ] && [ -e /usr/lib/dovecot/imap ] || missing+=(dovecot-imapd)
[ -e /usr/lib/dovecot/lmtp ] || missing+=(dovecot-lmtpd)
[ -e /usr/lib/dovecot/submission ] || missing+=(dovecot-submissiond)
[ -x /usr/sbin/smtpd ] || missing+=(opensmtpd)
command -v faketime >/dev/null 2>&1 || missing+=(faketime)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} from Debian's packages"
  # another apt or dpkg at work (an unattended upgrade, an install in another terminal) holds the dpkg lock:
  # wait for it, up to DUELMAIL_APT_LOCK_WAIT seconds (10 minutes), rather than fail at once
  wait_lock=(-o "DPkg::Lock::Timeout=${DUELMAIL_APT_LOCK_WAIT:-600}")
  apt-get "${wait_lock[@]}" update -qq
  apt-get "${wait_lock[@]}" install -y -qq "${missing[@]}" >/dev/null
else
  echo "the test suite needs these Debian packages, not installed here: ${missing[*]}" >&2
  echo "install them as root (apt-get install ${missing[*]}); the mail tests also run as root" >&2
fi
