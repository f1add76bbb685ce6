#!/bin/bash
# mailstack.sh - throwaway Dovecot (IMAP + LMTP) and Postfix (SMTP) on 127.0.0.1, with
# all config, queue, mailboxes, logs and sockets under ONE directory.
#
#   mailstack.sh run   [DIR]  foreground supervisor; SIGTERM/SIGINT to its PID stops everything
#   mailstack.sh start [DIR]  starts the supervisor detached, waits until ready, prints DIR
#   mailstack.sh stop  DIR    SIGTERM to the supervisor, waits until every process is gone
#
# Ready means DIR/env exists (shell syntax): MS_IMAP_ADDR, MS_SMTP_ADDR, MS_LMTP_SOCKET,
# MS_DOMAIN, MS_USERS, pids. Each user's password is "<user>-pw".
#
# Dovecot outages (for reconnect tests): SIGUSR1 to the supervisor stops Dovecot and
# leaves Postfix running (mail for the stack's users is then deferred by Postfix);
# SIGUSR2 starts Dovecot again on the same port. DIR/dovecot.state says "up PID" or
# "down" once a request is done.
#
# This is the project's copy of the verified recipe in shared/mailstack/mailstack.sh.
# Changes: the Dovecot stop/start signals and DIR/dovecot.state above (the supervisor
# loop below handles them instead of stopping everything when Dovecot exits on
# request); free_port works without ss(8) (iproute2) by probing with a connect,
# skips the kernel's ephemeral port range and ports any socket uses;
# DIR/env is rewritten after a Dovecot restart (new MS_DOVECOT_PID); a second SMTP
# listener, MS_MX_ADDR, without SASL, like an MX: a Postfix smtpd that offers AUTH
# exits when Dovecot's auth socket is down, so mail sent during a Dovecot outage
# must come in there (MS_SMTP_ADDR keeps AUTH, like a submission port); the readiness
# probe (wait_port) reads the greeting and checks a marker of this stack in it
# (login_greeting, smtpd_banner), so another stack's server on the port does not pass
# for ours. Everything else is unchanged.
# Knobs (environment):
#   MS_IMAP_PORT, MS_SMTP_PORT, MS_MX_PORT  fixed ports (default: random free ports >= 20000)
#   MS_USERS                    default "referee alice bob carol dave"
#   MS_DOMAIN                   default example.test
#   MS_DOVECOT_USER             user Dovecot runs as when started by root (default nobody);
#                               started by anyone else, Dovecot runs as that user
#   MS_NO_POSTFIX=1             IMAP + LMTP only (automatic when not root: Postfix needs root)
#   MS_LIFETIME                 seconds before the stack stops by itself (default 3600)
set -euo pipefail

cmd=${1:-}; T=${2:-}
DOMAIN=${MS_DOMAIN:-example.test}
USERS=${MS_USERS:-"referee alice bob carol dave"}
LIFETIME=${MS_LIFETIME:-3600}
SELF=$(readlink -f "$0")

free_port() {  # random port no socket uses (tiny race with other starters; Start retries)
  # outside the kernel's ephemeral range, where a client connection of a test
  # running alongside could hold the port by the time the server binds it
  local lo=32768 hi=60999 p
  read -r lo hi < /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
  [ "$lo" -gt 20000 ] || [ "$hi" -lt 59999 ] || { lo=1; hi=0; }  # no room outside it
  for _ in $(seq 1 200); do
    p=$(( 20000 + RANDOM % 40000 ))
    [ "$p" -lt "$lo" ] || [ "$p" -gt "$hi" ] || continue
    if command -v ss >/dev/null 2>&1; then
      ss -Htan "sport = :$p" | grep -q . || { echo "$p"; return 0; }
    else  # no iproute2: a port nobody accepts on is taken as free
      (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
    fi
  done
  return 1
}

wait_port() {  # wait_port PORT TENTHS_OF_A_SECOND MARKER [PID]
  # Ready means THIS stack's server answers: its greeting (Dovecot's
  # login_greeting, Postfix's smtpd_banner) carries MARKER, unique to the
  # stack's directory. A bare connect would also succeed when another
  # stack's server holds the port after ours failed to bind it. With PID,
  # gives up as soon as that server's master has exited.
  local line
  for _ in $(seq 1 "$2"); do
    [ -z "${4:-}" ] || alive "$4" || return 1
    if line=$( (exec 3<>"/dev/tcp/127.0.0.1/$1" && IFS= read -r -t 2 l <&3 && printf '%s' "$l") 2>/dev/null ); then
      case "$line" in *"$3"*) return 0;; esac
    fi
    sleep 0.1
  done
  return 1
}

alive() {  # zombies count as dead: orphans can linger unreaped under some PID 1s
  local st; st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  case "$st" in Z*) return 1;; esac
}

case "$cmd" in
run)
  [ -n "$T" ] || T=$(mktemp -d /tmp/ms.XXXXXX)
  mkdir -p "$T"; T=$(cd "$T" && pwd)
  # unix socket paths must fit in sun_path (107 bytes): keep DIR short (not t.TempDir())
  [ ${#T} -le 60 ] || { echo "mailstack: DIR too long for unix sockets: $T" >&2; exit 2; }
  chmod 755 "$T"      # Postfix's lmtp client (uid postfix) must reach the LMTP socket
  NO_POSTFIX=${MS_NO_POSTFIX:-}
  [ "$(id -u)" = 0 ] || NO_POSTFIX=1
  IMAP_PORT=${MS_IMAP_PORT:-$(free_port)}
  SMTP_PORT=${MS_SMTP_PORT:-$(free_port)}
  MX_PORT=${MS_MX_PORT:-$(free_port)}
  [ "$MX_PORT" != "$SMTP_PORT" ] || MX_PORT=$(free_port)
  MARK="mailstack-${T##*/}"   # in both greetings: wait_port knows its own servers
  if [ "$(id -u)" = 0 ]; then DUSER=${MS_DOVECOT_USER:-nobody}; else DUSER=$(id -un); fi
  DGROUP=$(id -gn "$DUSER")

  # ------------------------------------------------ Dovecot: no root needed at all
  D=$T/dovecot
  mkdir -p "$D/run" "$D/state" "$T/mail"
  : > "$D/users"
  for u in $USERS; do echo "$u@$DOMAIN:{PLAIN}$u-pw" >> "$D/users"; done
  cat > "$D/dovecot.conf" <<EOF
# generated by mailstack.sh
base_dir = $D/run
state_dir = $D/state
instance_name = ms-${T##*/}
protocols = imap lmtp
listen = 127.0.0.1
log_path = $D/dovecot.log
hostname = mail.$DOMAIN
login_greeting = $MARK ready.
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
# every service runs as one unprivileged user (Dovecot's "rootless" mode)
default_internal_user = $DUSER
default_internal_group = $DGROUP
default_login_user = $DUSER
mail_location = maildir:$T/mail/%d/%n/Maildir
mail_fsync = never
# IDLE uses inotify; this is only the fallback poll if inotify instances run out
mailbox_idle_check_interval = 1 secs
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%Lu $D/users
}
userdb {
  driver = static
  args = uid=$DUSER gid=$DGROUP home=$T/mail/%d/%n
}
protocol imap {
  mail_max_userip_connections = 200
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  unix_listener lmtp {
    mode = 0666
  }
}
service auth {
  unix_listener auth-smtp {
    mode = 0666
  }
}
service anvil {
  chroot =
}
EOF
  if [ "$(id -u)" = 0 ]; then
    chown -R "$DUSER:$DGROUP" "$D" "$T/mail"
    AS=(setpriv --reuid="$DUSER" --regid="$DGROUP" --clear-groups)
    # a port below 1024 (e.g. 143) needs CAP_NET_BIND_SERVICE kept across the uid change
    [ "$IMAP_PORT" -ge 1024 ] || AS+=(--inh-caps=+net_bind_service --ambient-caps=+net_bind_service)
  else AS=(); fi
  chmod 600 "$D/users"

  # ------------------------------------------------ Postfix: master must start as root
  P=$T/postfix
  if [ -z "$NO_POSTFIX" ]; then
    mkdir -p "$P/etc" "$P/spool" "$P/data"
    chown postfix:postfix "$P/data"      # master.lock is created there as mail_owner
    # queue dirs by hand: 'postfix -c DIR check' also makes them but costs ~2 s
    for q in active bounce corrupt defer deferred flush hold incoming private saved trace; do
      install -d -o postfix -g root -m 700 "$P/spool/$q"
    done
    install -d -o postfix -g postdrop -m 730 "$P/spool/maildrop"
    install -d -o postfix -g postdrop -m 710 "$P/spool/public"
    install -d -o root -g root -m 755 "$P/spool/pid"
    for u in $USERS; do echo "$u@$DOMAIN OK"; done > "$P/etc/vmailbox"
    cat > "$P/etc/main.cf" <<EOF
# generated by mailstack.sh
compatibility_level = 3.6
queue_directory = $P/spool
data_directory = $P/data
mail_owner = postfix
setgid_group = postdrop
maillog_file = $P/postfix.log
maillog_file_prefixes = $T
syslog_name = ms-${T##*/}
myhostname = mail.$DOMAIN
mydomain = $DOMAIN
myorigin = $DOMAIN
# nothing is "local"; example.test is a virtual domain handed to Dovecot over LMTP
mydestination =
local_transport = error:local delivery is disabled
alias_maps =
alias_database =
virtual_mailbox_domains = $DOMAIN
virtual_mailbox_maps = texthash:$P/etc/vmailbox
virtual_transport = lmtp:unix:$D/run/lmtp
recipient_delimiter = +
# never relay: anything not for $DOMAIN is refused at RCPT time, and could not leave anyway
relay_domains =
relayhost =
smtpd_relay_restrictions = reject_unauth_destination
default_transport = error:mailstack never relays outside $DOMAIN
relay_transport = error:mailstack never relays outside $DOMAIN
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_peername_lookup = no
smtpd_banner = \$myhostname ESMTP $MARK
# optional AUTH PLAIN/LOGIN against Dovecot's users (cleartext is fine on loopback)
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = $D/run/auth-smtp
smtpd_tls_security_level = none
smtp_tls_security_level = none
biff = no
append_dot_mydomain = no
in_flow_delay = 0
# one recipient per LMTP transaction, so Dovecot always adds "Delivered-To: user+tag@..."
# (it omits the header when a transaction has several recipients)
lmtp_destination_recipient_limit = 1
# quick retries if Dovecot was down for a moment (defaults: 300 s and more)
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 5s
EOF
    # qmgr wakes every second, not every 300 s: a message that met a delivery still in
    # flight ("skipped, still being delivered") goes back to the incoming queue, which
    # is scanned only when new mail arrives or at that wakeup (TestDovecotRestart saw
    # the mail sent during a Dovecot outage wait there past its 10 s)
    cat > "$P/etc/master.cf" <<EOF
# service      type  private unpriv chroot wakeup maxproc command
127.0.0.1:$SMTP_PORT inet n  -      n      -      -       smtpd
127.0.0.1:$MX_PORT inet n    -      n      -      -       smtpd -o smtpd_sasl_auth_enable=no
cleanup        unix  n       -      n      -      0       cleanup
qmgr           unix  n       -      n      1      1       qmgr
rewrite        unix  -       -      n      -      -       trivial-rewrite
bounce         unix  -       -      n      -      0       bounce
defer          unix  -       -      n      -      0       bounce
trace          unix  -       -      n      -      0       bounce
verify         unix  -       -      n      -      1       verify
flush          unix  n       -      n      1000?  0       flush
proxymap       unix  -       -      n      -      -       proxymap
showq          unix  n       -      n      -      -       showq
error          unix  -       -      n      -      -       error
retry          unix  -       -      n      -      -       error
discard        unix  -       -      n      -      -       discard
lmtp           unix  -       -      n      -      -       lmtp
anvil          unix  -       -      n      -      1       anvil
scache         unix  -       -      n      -      1       scache
postlog        unix-dgram n  -      n      -      1       postlogd
EOF
    # Postfix re-reads a config file until its mtime is >= 2 s old (300 ms naps, "let it
    # cool down"): backdate the fresh files or every start costs ~2.3 s.
    touch -d "@$(( $(date +%s) - 10 ))" "$P/etc/main.cf" "$P/etc/master.cf" "$P/etc/vmailbox"
  fi

  echo $$ > "$T/mailstack.pid"
  DPID=; PFPID=; TIMER=
  shutdown() {
    trap - TERM INT
    for p in $PFPID $DPID $TIMER; do kill -TERM "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -f "$T/mailstack.pid"
    exit "${1:-0}"
  }
  trap shutdown TERM INT

  # Dovecot: -F keeps its master in the foreground, as our child
  start_dovecot() {
    "${AS[@]}" /usr/sbin/dovecot -F -c "$D/dovecot.conf" </dev/null >>"$D/stderr.log" 2>&1 &
    DPID=$!
  }
  dovecot_children() {  # this instance's Dovecot processes (named after DIR)
    { ps -e -o pid=,stat=,args= 2>/dev/null || true; } |
      awk -v p="dovecot-ms-${T##*/}/" '$2 !~ /^Z/ && index($3, p) == 1 {print $1}'
  }
  stop_dovecot() {
    [ -n "$DPID" ] || return 0
    kill -TERM "$DPID" 2>/dev/null || true
    # a trap (USR1/USR2) interrupts wait: loop until the master is really gone
    while alive "$DPID"; do wait "$DPID" 2>/dev/null || true; done
    DPID=
    # anvil, log, stats and auth can outlive the master for a long time; a new
    # master must not meet them, so end them (they hold no mail)
    local left; left=$(dovecot_children)
    [ -z "$left" ] || kill -TERM $left 2>/dev/null || true
    for _ in $(seq 1 50); do
      left=$(dovecot_children); [ -z "$left" ] && return 0
      sleep 0.1
    done
    kill -KILL $left 2>/dev/null || true
  }
  dovecot_state() { echo "$1" > "$T/dovecot.state.tmp"; mv "$T/dovecot.state.tmp" "$T/dovecot.state"; }
  WANT=
  trap 'WANT=stop' USR1
  trap 'WANT=start' USR2
  start_dovecot
  if [ -z "$NO_POSTFIX" ]; then
    # without -w the master does not fork (it only calls setsid()); -e = lifetime cap
    /usr/lib/postfix/sbin/master -c "$P/etc" -e "$LIFETIME" </dev/null >>"$P/stderr.log" 2>&1 &
    PFPID=$!
  fi
  sleep "$LIFETIME" </dev/null >/dev/null 2>&1 &   # lifetime cap for forgotten stacks
  TIMER=$!

  if ! wait_port "$IMAP_PORT" 100 "$MARK" "$DPID"; then
    echo "mailstack: IMAP not up" >&2; cat "$D/dovecot.log" "$D/stderr.log" >&2; shutdown 1
  fi
  if [ -z "$NO_POSTFIX" ] && ! { wait_port "$SMTP_PORT" 100 "$MARK" && wait_port "$MX_PORT" 100 "$MARK"; }; then
    echo "mailstack: SMTP not up" >&2; cat "$P/postfix.log" "$P/stderr.log" >&2; shutdown 1
  fi
  SMTP_ADDR=127.0.0.1:$SMTP_PORT; MX_ADDR=127.0.0.1:$MX_PORT
  [ -z "$NO_POSTFIX" ] || { SMTP_ADDR=; MX_ADDR=; }
  write_env() {
    cat > "$T/env.tmp" <<ENV
MS_DIR=$T
MS_IMAP_ADDR=127.0.0.1:$IMAP_PORT
MS_SMTP_ADDR=$SMTP_ADDR
MS_MX_ADDR=$MX_ADDR
MS_LMTP_SOCKET=$D/run/lmtp
MS_DOMAIN=$DOMAIN
MS_USERS="$USERS"
MS_PASSWORD_SUFFIX=-pw
MS_PID=$$
MS_DOVECOT_PID=$DPID
MS_POSTFIX_PID=$PFPID
ENV
    mv "$T/env.tmp" "$T/env"
  }
  dovecot_state "up $DPID"
  write_env
  echo "$T"
  # stay the parent of both masters; when either exits by itself (or the timer ends),
  # stop the rest. Dovecot stop/start requests arrive as USR1/USR2 and interrupt wait.
  while :; do
    [ -n "$WANT" ] || wait -n $DPID $PFPID "$TIMER" || true
    case "$WANT" in
    stop)
      WANT=; stop_dovecot; dovecot_state down; continue;;
    start)
      WANT=
      if [ -z "$DPID" ]; then
        start_dovecot
        if ! wait_port "$IMAP_PORT" 100 "$MARK" "$DPID"; then
          echo "mailstack: IMAP not up after restart" >&2; cat "$D/dovecot.log" "$D/stderr.log" >&2; shutdown 1
        fi
        write_env
      fi
      dovecot_state "up $DPID"; continue;;
    esac
    break
  done
  echo "mailstack: a server exited or lifetime reached; stopping" >&2
  shutdown
  ;;
start)
  [ -n "$T" ] || T=$(mktemp -d /tmp/ms.XXXXXX)
  mkdir -p "$T"; T=$(cd "$T" && pwd); rm -f "$T/env"
  setsid "$SELF" run "$T" </dev/null >"$T/mailstack.log" 2>&1 &
  sup=$!
  for _ in $(seq 1 200); do
    [ -s "$T/env" ] && { echo "$T"; exit 0; }
    alive "$sup" || break
    sleep 0.05
  done
  echo "mailstack: start failed, see $T/mailstack.log" >&2; cat "$T/mailstack.log" >&2; exit 1
  ;;
stop)
  [ -n "$T" ] && [ -s "$T/env" ] || { echo "mailstack: nothing started in '$T'" >&2; exit 0; }
  . "$T/env"
  # after 'start' the supervisor's session holds it and Dovecot; Postfix's master always
  # makes its own session; after a plain 'run' only the pids themselves can be watched
  sids=$MS_PID${MS_POSTFIX_PID:+,$MS_POSTFIX_PID}
  pids=$MS_PID,$MS_DOVECOT_PID${MS_POSTFIX_PID:+,$MS_POSTFIX_PID}
  kill -TERM "$MS_PID" 2>/dev/null || true
  for _ in $(seq 1 100); do
    left=$({ ps -o pid=,stat= -s "$sids"; ps -o pid=,stat= -p "$pids"; } 2>/dev/null |
           awk '$2 !~ /^Z/ {print $1}' | sort -u)
    [ -z "$left" ] && exit 0
    sleep 0.1
  done
  echo "mailstack: still running after 10 s, SIGKILL:" $left >&2
  kill -KILL $left 2>/dev/null || true
  ;;
*) echo "usage: $0 run|start [DIR] | stop DIR" >&2; exit 2;;
esac
