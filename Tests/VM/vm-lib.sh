#!/bin/sh
# Helpers for the VM test's scenario scripts (vm-tests.sh and the suites it runs, such as
# monitor-tests.sh), sourced inside the VM. Each check prints one line on the console,
#   VMTEST PASS name   or   VMTEST FAIL name: why
# and measured values print as VMTEST FIGURE lines; scripts/vm-test counts them.
T=/tmp/t
RT=/usr/bin/rtstack
STATE="--state-dir /tmp/state"
mkdir -p $T
pass=0
fail=0

ok() { echo "VMTEST PASS $1"; pass=$((pass + 1)); }
bad() { echo "VMTEST FAIL $1: $2"; fail=$((fail + 1)); }
figure() { echo "VMTEST FIGURE $*"; }
show() { awk '{ print "    | " $0 }' "$@"; }   # a last line without a newline gets one
now() { cut -d' ' -f1 /proc/uptime; }
# seconds A B: B - A, one decimal.
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# expect_error NAME EXPECTED_STATUS FILE STATUS PHRASE...: the run ended with that status and
# its stderr (FILE) names every phrase.
expect_error() {
    _name=$1 _want=$2 _file=$3 _got=$4
    shift 4
    if [ "$_got" != "$_want" ]; then bad "$_name" "exit $_got, expected $_want"; show "$_file"; return; fi
    for _phrase in "$@"; do
        if ! grep -qF -- "$_phrase" "$_file"; then bad "$_name" "message lacks '$_phrase'"; show "$_file"; return; fi
    done
    ok "$_name"
    sed 's/^/    /' "$_file" | head -3
}

# --- Bounded runs ----------------------------------------------------------------------------
# finish PID LIMIT: waits for a background process at most LIMIT seconds, then sends SIGTERM,
# 3 s later SIGKILL, and 3 s after that stops waiting: a task stuck in the kernel (after an
# oops) cannot be reaped, and the run must go on. Sets rc: the exit status, or 125 if stuck.
finish() {
    _pid=$1 _ticks=0 _limit=$(($2 * 5))
    while kill -0 "$_pid" 2>/dev/null; do
        if [ $_ticks = $_limit ]; then
            kill -TERM "$_pid" 2>/dev/null
        elif [ $_ticks = $((_limit + 15)) ]; then
            kill -KILL "$_pid" 2>/dev/null
        elif [ $_ticks -ge $((_limit + 30)) ]; then
            echo "    (pid $_pid did not end even after SIGKILL: stuck in the kernel)"
            rc=125
            return
        fi
        sleep 0.2
        _ticks=$((_ticks + 1))
    done
    wait "$_pid"
    rc=$?
}

# rt LIMIT NAME ARGS...: rtstack ARGS, stdout in $T/NAME.out, stderr in $T/NAME.err, at most
# LIMIT seconds; sets rc.
rt() {
    _limit=$1 _name=$2
    shift 2
    $RT "$@" >$T/$_name.out 2>$T/$_name.err &
    finish $! $_limit
}

# wait_until SECONDS COMMAND...: polls COMMAND every 0.2 s; fails after SECONDS.
wait_until() {
    _ticks=$(($1 * 5))
    shift
    while [ $_ticks -gt 0 ]; do
        "$@" && return 0
        sleep 0.2
        _ticks=$((_ticks - 1))
    done
    return 1
}

# --- JSON Lines from rtstack --json (flat objects, one per line) -------------------------------
# json_field NAME: the value of "NAME" on each line of stdin that has it (strings unquoted).
json_field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"; }
# measurements FILE ROLE: the session times of ROLE's measurements, one per line.
measurements() { grep '"event":"measurement"' "$1" | grep "\"sensor\":\"$2\"" | json_field time; }
# first_after FILE ROLE T: the time of ROLE's first measurement after session time T, or nothing.
first_after() { measurements "$1" "$2" | awk -v t="$3" '$1 > t { print; exit }'; }

# stamp COPY: copies stdin to COPY and to stdout with each line led by the VM's uptime when it
# arrived (rtstack flushes each JSON line).
stamp() { while IFS= read -r _line; do echo "$_line" >>"$1"; echo "$(now) $_line"; done; }
# stamped_after FILE ROLE T: the uptime at which ROLE's first measurement after uptime T arrived.
stamped_after() { grep '"event":"measurement"' "$1" | grep "\"sensor\":\"$2\"" | awk -v t="$3" '$1 > t { print $1; exit }'; }

# --- The kernel's log --------------------------------------------------------------------------
OOPS_SEEN=0
# kernel_intact WHAT: fails "kernel intact during WHAT" when the kernel logged an oops, a BUG,
# list corruption or a warning since the last call (the console log level hides most of it).
kernel_intact() {
    dmesg | grep -E 'kernel BUG|BUG:|Oops|list_del corruption|list_add corruption|general protection|WARNING:' >$T/oops
    _n=$(wc -l <$T/oops)
    if [ "$_n" -gt "$OOPS_SEEN" ]; then
        bad "kernel intact during $1" "the kernel logged"
        tail -n +$((OOPS_SEEN + 1)) $T/oops | show
        dmesg | grep -A14 'Call Trace' | tail -15 | show
        OOPS_SEEN=$_n
        return 1
    fi
    return 0
}

# --- Adapters and peers ------------------------------------------------------------------------
# address_of N: the public address of hciN, as rtstack adapters lists it.
address_of() { $RT adapters 2>/dev/null | awk -v a="hci$1" '$1 == a { print $2 }'; }

# adv_data UUID16-LE NAME: advertising data with the Complete List of 16-bit Service UUIDs and
# the Complete Local Name.
adv_data() {
    _hex=$(printf '%s' "$2" | hexdump -v -e '/1 "%02x"')
    printf '0303%s%02x09%s' "$1" $((${#2} + 1)) "$_hex"
}
# advertise N UUID16-LE NAME: connectable advertising through the kernel (instance 1).
advertise() { btmgmt --index $1 add-adv -c -g -d "$(adv_data $2 "$3")" 1 >>$T/btmgmt.log 2>&1; }
unadvertise() { btmgmt --index $1 rm-adv 1 >>$T/btmgmt.log 2>&1; }
# peripheral_on N: LE, connectable, powered (advertising is added separately).
peripheral_on() {
    for _c in "le on" "connectable on" "power on"; do btmgmt --index $1 $_c >>$T/btmgmt.log 2>&1; done
}

# l2cap_sockets: the kernel's L2CAP channels (debugfs, addresses in lower case):
#   src (type) dst (type) state psm scid dcid imtu omtu sec_level mode
l2cap_sockets() { cat /sys/kernel/debug/bluetooth/l2cap 2>/dev/null; }
# listening ADDRESS: a socket listens (state 4, BT_LISTEN) on the ATT channel (CID 0x0004) of
# the adapter with that address.
listening() { l2cap_sockets | grep -qi "^$1 ([0-9]) 00:00:00:00:00:00 ([0-9]) 4 [0-9]* 0x0004 "; }

# heart_server NAME N respawn|once [OPTIONS]: BlueZ's btgatt-server serving Heart Rate (-r) on
# hciN, with further btgatt-server OPTIONS (e.g. "-s high").
# It accepts one connection and exits when it ends: "once" starts one, "respawn" starts the next
# each time. Its stdin is a FIFO opened read-write (without an open stdin it exits with "Failed
# to initialize console"); stdout (block-buffered, complete once it exits) goes to $T/NAME.log.
# Returns when it listens.
heart_server() {
    _n=$1 _idx=$2 _mode=$3 _opts=${4:-}
    [ -p $T/$_n.in ] || mkfifo $T/$_n.in
    rm -f $T/$_n.pid
    (
        while :; do
            echo "--- btgatt-server -i hci$_idx -r $_opts started at $(now)" >>$T/$_n.log
            btgatt-server -i hci$_idx -r $_opts 0<>$T/$_n.in >>$T/$_n.log 2>&1 &
            echo $! >$T/$_n.pid
            wait $!
            echo "--- btgatt-server exited ($?) at $(now)" >>$T/$_n.log
            [ "$_mode" = respawn ] || break
            sleep 0.2
        done
    ) &
    echo $! >$T/$_n.loop
    _a=$(address_of $_idx)
    wait_until 10 listening "$_a" || { echo "    btgatt-server on hci$_idx does not listen"; show $T/$_n.log; }
}
# server_pid NAME: the btgatt-server running now.
server_pid() { cat $T/$1.pid 2>/dev/null; }
# server_gone NAME [SECONDS]: waits until the btgatt-server of a "once" peer has exited (so its
# output is complete).
server_gone() {
    _p=$(server_pid $1)
    [ -n "$_p" ] || return 0
    wait_until ${2:-10} eval "! kill -0 $_p 2>/dev/null"
}
# server_stop NAME: ends the peer (its loop first, then the server, also when stopped).
server_stop() {
    kill $(cat $T/$1.loop 2>/dev/null) 2>/dev/null
    _p=$(server_pid $1)
    [ -n "$_p" ] && kill -CONT $_p 2>/dev/null && kill $_p 2>/dev/null
    server_gone $1 5
}
