#!/bin/sh
# Runs inside the VM (see scripts/vm-test). Each check prints one line
#   VMTEST PASS name   or   VMTEST FAIL name: why
# and the script exits non-zero if any failed. Virtual world: btvirt -L -l3 gives LE-only
# controllers hci0 (rtstack's, through its user channel), hci1 and hci2 (peripherals run by
# the kernel: advertising through btmgmt, GATT servers on kernel L2CAP ATT sockets).
pass=0
fail=0
ok() { echo "VMTEST PASS $1"; pass=$((pass + 1)); }
bad() { echo "VMTEST FAIL $1: $2"; fail=$((fail + 1)); }
show() { sed 's/^/    | /' "$@"; }
T=/tmp/t
mkdir -p $T
RT=/usr/bin/rtstack
STATE="--state-dir /tmp/state"

# expect_error NAME EXPECTED_STATUS FILE PHRASE...: the run ended with that status and its
# stderr (FILE) names every phrase.
expect_error() {
    name=$1 want=$2 file=$3 got=$4
    shift 4
    if [ "$got" != "$want" ]; then bad "$name" "exit $got, expected $want"; show "$file"; return; fi
    for phrase in "$@"; do
        if ! grep -qF -- "$phrase" "$file"; then bad "$name" "message lacks '$phrase'"; show "$file"; return; fi
    done
    ok "$name"
    sed 's/^/    /' "$file" | head -3
}

# --- Before the Bluetooth modules: the kernel has no AF_BLUETOOTH --------------------------
timeout 20 $RT --adapter hci0 --duration 1 $STATE >$T/o 2>$T/e; rc=$?
expect_error "no kernel Bluetooth: session exits 3 naming EAFNOSUPPORT" 3 $T/e $rc "EAFNOSUPPORT" "modprobe bluetooth"
timeout 20 $RT adapters >$T/o 2>$T/e; rc=$?
expect_error "no kernel Bluetooth: adapters exits 3" 3 $T/e $rc "no Bluetooth support in this kernel"

# --- Modules, in the order test-world.md documents -----------------------------------------
for m in sha3_generic jitterentropy_rng sha512_generic ctr drbg af_alg algif_hash algif_skcipher \
         ecb cmac rfkill crc16 ecc ecdh_generic bluetooth hci_vhci; do
    insmod /lib/modules/$m.ko 2>$T/e || { grep -q "File exists" $T/e || bad "insmod $m" "$(cat $T/e)"; }
done
btvirt -L -l4 >$T/btvirt.log 2>&1 &
BTVIRT=$!
for i in $(seq 1 50); do [ -e /sys/class/bluetooth/hci3 ] && break; sleep 0.1; done
sleep 2.5   # the kernel sets each new controller up, then powers it off again (auto-off)
if [ -e /sys/class/bluetooth/hci3 ]; then ok "btvirt made hci0..hci3"; else bad "btvirt" "no hci3"; show $T/btvirt.log; fi

timeout 20 $RT adapters >$T/adapters 2>$T/e; rc=$?
cat $T/adapters | sed 's/^/    /'
if [ $rc = 0 ] && grep -q '^hci0 .* down .* free' $T/adapters && grep -q '^hci2 ' $T/adapters; then
    ok "adapters lists hci0..hci2, hci0 down and free"
else
    bad "adapters" "exit $rc"; show $T/e
fi
A1=$(awk '$1=="hci1"{print $2}' $T/adapters)
A2=$(awk '$1=="hci2"{print $2}' $T/adapters)
echo "    peripherals: hci1 $A1, hci2 $A2"

# --- Peripherals: advertise through the kernel, GATT on kernel ATT sockets ------------------
# Advertising data: Complete List of 16-bit Service UUIDs, Complete Local Name.
adv() { # index uuid16-little-endian name
    name_hex=$(printf '%s' "$3" | hexdump -v -e '/1 "%02x"')
    len=$(( ${#3} + 1 ))
    printf '0303%s%02x09%s' "$2" $len "$name_hex"
}
for i in 1 2; do
    btmgmt --index $i le on >>$T/btmgmt.log 2>&1
    btmgmt --index $i connectable on >>$T/btmgmt.log 2>&1
    btmgmt --index $i power on >>$T/btmgmt.log 2>&1
done
btmgmt --index 1 add-adv -c -g -d "$(adv 1 0d18 'VM Heart')" 1 >>$T/btmgmt.log 2>&1 || bad "add-adv hci1" "see log"
btmgmt --index 2 add-adv -c -g -d "$(adv 2 1418 'VM Speed')" 1 >>$T/btmgmt.log 2>&1 || bad "add-adv hci2" "see log"
gatt-peripheral -v -i 1 -s heart -n "VM Heart" 2>$T/gatt1.log &
G1=$!
gatt-peripheral -v -i 2 -s speed -n "VM Speed" 2>$T/gatt2.log &
G2=$!
sleep 0.5

# --- (a) The user-channel backend on hci0 ---------------------------------------------------
timeout 30 $RT scan --adapter hci0 --duration 3 $STATE >$T/scan 2>$T/e; rc=$?
if [ $rc = 0 ] && grep -q "$A1" $T/scan && grep -q "$A2" $T/scan; then
    ok "scan on hci0 sees hci1 and hci2"
    grep -E "$A1|$A2" $T/scan | tail -2 | sed 's/^/    /'
else
    bad "scan on hci0" "exit $rc"; show $T/scan $T/e; show $T/btmgmt.log
fi

timeout 40 $RT gatt "$A1/public" --adapter hci0 $STATE >$T/gatt 2>$T/e; rc=$?
if [ $rc = 0 ] && grep -qi "2A37" $T/gatt && grep -qi "180D" $T/gatt; then
    ok "gatt on hci0 discovers the heart-rate service of hci1"
    grep -i "180D\|2A37" $T/gatt | head -3 | sed 's/^/    /'
else
    bad "gatt on hci0" "exit $rc"; show $T/gatt $T/e
fi

# btvirt handles: btvirt (BlueZ emulator/btdev.c, 5.66 and upstream) numbers a new link's
# handle on each side separately (the first free one from the same base) but tells the
# peripheral the central's number. They agree only if both sides have as many links open, so a
# central's second link is broken unless its peer already holds one. hci3 gives hci2 that link;
# the session then connects hci1 (first, 0x002A both sides) and hci2 (second, 0x002B both sides).
btmgmt --index 3 le on >>$T/btmgmt.log 2>&1
btmgmt --index 3 power on >>$T/btmgmt.log 2>&1
gatt-peripheral -i 3 -c "$A2" 2>$T/hold.log &
HOLD=$!
for i in $(seq 1 30); do grep -q "holds a link" $T/hold.log && break; sleep 0.1; done
grep -q "holds a link" $T/hold.log || { bad "hci3 holds a link to hci2" "-"; show $T/hold.log; }
sed 's/^/    /' $T/hold.log
sleep 0.5   # the kernel re-enables hci2's advertising after the link

# Both peers at once: the run session connects, discovers, subscribes and decodes. btmon
# records what every adapter's kernel side sees, for the report if it fails.
btmon -w $T/monitor.btsnoop >/dev/null 2>&1 &
MON=$!
$RT --adapter hci0 --json --duration 8 --only heart,speed --heart "$A1/public" --speed "$A2/public" $STATE \
    --capture $T/session.btsnoop >$T/session 2>$T/session.err &
S=$!
sleep 5
# While the session holds hci0: the adapter shows as held, and a second open is refused.
timeout 20 $RT adapters >$T/adapters2 2>&1
if grep -q '^hci0 .* up .* held' $T/adapters2; then ok "adapters shows hci0 held by the user channel"; else bad "adapters while held" "-"; show $T/adapters2; fi
RTSTACK_MGMT_TRACE=1 timeout 20 $RT scan --adapter hci0 --backend kernel --duration 1 $STATE >$T/o 2>$T/e; rc=$?
expect_error "EBUSY: --backend kernel on hci0 held by a user channel" 3 $T/e $rc "busy" "EBUSY" "user channel"
timeout 20 $RT scan --adapter hci0 --duration 1 $STATE >$T/o 2>$T/e; rc=$?
expect_error "EBUSY: second user channel on hci0" 3 $T/e $rc "busy" "EBUSY" "systemctl stop bluetooth"
HWM=$(awk '/VmHWM/{print $2" "$3}' /proc/$S/status 2>/dev/null)
RSS=$(awk '/VmRSS/{print $2" "$3}' /proc/$S/status 2>/dev/null)
echo "VMTEST FIGURE session VmHWM $HWM VmRSS $RSS"
wait $S; rc=$?
kill $MON 2>/dev/null
hr=$(grep -c '"event":"measurement".*"sensor":"heart"' $T/session)
sp=$(grep -c '"event":"measurement".*"sensor":"speed"' $T/session)
echo "    session: $hr heart-rate and $sp speed measurements"
if [ $rc = 0 ] && [ "$hr" -ge 10 ] && [ "$sp" -ge 10 ] && grep -q '"event":"summary"' $T/session; then
    ok "session on hci0: two peers at once, discovery, notifications"
    grep '"event":"summary"' $T/session | sed 's/^/    /'
else
    bad "session on hci0" "exit $rc, $hr heart, $sp speed"
    grep -v '"event":"measurement"' $T/session | show; show $T/session.err $T/gatt1.log $T/gatt2.log
    $RT decode $T/session.btsnoop --brief 2>&1 | grep -v "Notification" | tail -100 | show
    echo "    --- btmon (all adapters, kernel side) ---"
    $RT decode $T/monitor.btsnoop --brief 2>&1 | grep -v "Notification" | head -150 | show
fi


# --- (b) The kernel backend on hci0: the kernel keeps the adapter -----------------------------
# hci0 is back with the kernel, powered off. rtstack powers it on through the management
# channel, scans with the kernel's discovery and opens one L2CAP ATT socket per link; the
# session connects hci1 first, then hci2 (the btvirt handle defect above applies alike).
# The peripherals start advertising once the scan runs. A kernel race decides otherwise: it
# drops reports that arrive before its discovery state is "finding", and btvirt delivers the
# reports of devices already advertising within a millisecond of LE Set Scan Enable, which the
# controller's duplicate filter then never repeats (rtstack's 4 s discovery cycle recovers
# them, but only by chance within a short scan). Devices that appear during the scan are
# reported deterministically.
btmgmt --index 1 rm-adv 1 >>$T/btmgmt.log 2>&1
btmgmt --index 2 rm-adv 1 >>$T/btmgmt.log 2>&1
btmon -w $T/kscanmon.btsnoop >/dev/null 2>&1 &
MON=$!
RTSTACK_MGMT_TRACE=1 timeout 40 $RT scan --adapter hci0 --backend kernel --duration 6 $STATE >$T/kscan 2>$T/e &
K=$!
sleep 2
btmgmt --index 1 add-adv -c -g -d "$(adv 1 0d18 'VM Heart')" 1 >>$T/btmgmt.log 2>&1 || bad "add-adv hci1 again" "see log"
btmgmt --index 2 add-adv -c -g -d "$(adv 2 1418 'VM Speed')" 1 >>$T/btmgmt.log 2>&1 || bad "add-adv hci2 again" "see log"
wait $K; rc=$?
kill $MON 2>/dev/null
if [ $rc = 0 ] && grep -q "$A1" $T/kscan && grep -q "$A2" $T/kscan; then
    ok "kernel backend: scan on hci0 sees hci1 and hci2"
    grep -E "$A1|$A2" $T/kscan | tail -2 | sed 's/^/    /'
else
    bad "kernel backend: scan on hci0" "exit $rc"; show $T/kscan $T/e
    $RT decode $T/kscanmon.btsnoop --brief 2>&1 | head -120 | show
fi
timeout 20 $RT adapters >$T/kadapters 2>&1
if grep -q '^hci0 .* down ' $T/kadapters; then
    ok "kernel backend: hci0 left powered off, as found"
else
    bad "kernel backend: hci0 as found" "-"; show $T/kadapters
fi

btmon -w $T/kmonitor.btsnoop >/dev/null 2>&1 &
MON=$!
$RT --adapter hci0 --backend kernel --json --duration 8 --only heart,speed --heart "$A1/public" --speed "$A2/public" \
    $STATE --no-cache --capture $T/ksession.btsnoop >$T/ksession 2>$T/ksession.err &
S=$!
sleep 5
timeout 20 $RT adapters >$T/kadapters2 2>&1
if grep -q '^hci0 .* up .* free' $T/kadapters2; then ok "kernel backend: hci0 stays the kernel's (up, no user channel)"; else bad "kernel backend: adapters while running" "-"; show $T/kadapters2; fi
HWM=$(awk '/VmHWM/{print $2" "$3}' /proc/$S/status 2>/dev/null)
RSS=$(awk '/VmRSS/{print $2" "$3}' /proc/$S/status 2>/dev/null)
echo "VMTEST FIGURE kernel-backend session VmHWM $HWM VmRSS $RSS"
wait $S; rc=$?
kill $MON 2>/dev/null
hr=$(grep -c '"event":"measurement".*"sensor":"heart"' $T/ksession)
sp=$(grep -c '"event":"measurement".*"sensor":"speed"' $T/ksession)
echo "    kernel-backend session: $hr heart-rate and $sp speed measurements"
if [ $rc = 0 ] && [ "$hr" -ge 10 ] && [ "$sp" -ge 10 ] && grep -q '"event":"summary"' $T/ksession; then
    ok "kernel backend: session on hci0, two peers at once, discovery, notifications"
    grep '"event":"summary"' $T/ksession | sed 's/^/    /'
else
    bad "kernel backend: session on hci0" "exit $rc, $hr heart, $sp speed"
    grep -v '"event":"measurement"' $T/ksession | show; show $T/ksession.err $T/gatt1.log $T/gatt2.log
    $RT decode $T/ksession.btsnoop --brief 2>&1 | grep -v "Notification" | tail -60 | show
    echo "    --- btmon (all adapters, kernel side) ---"
    $RT decode $T/kmonitor.btsnoop --brief 2>&1 | grep -v "Notification" | head -200 | show
fi
notes=$($RT decode $T/ksession.btsnoop --filter att=notification --brief 2>/dev/null | grep -c "Handle Value Notification")
if [ "$notes" -ge 20 ]; then
    ok "kernel backend: --capture holds the links' ATT PDUs as ACL data ($notes notifications decoded)"
else
    bad "kernel backend: --capture" "$notes notifications decoded"; $RT decode $T/ksession.btsnoop --brief 2>&1 | head -30 | show
fi
sleep 2.5   # the kernel drops the LE links a moment after their last socket closed

timeout 20 $RT --adapter hci9 --backend kernel --duration 1 $STATE >$T/o 2>$T/e; rc=$?
expect_error "kernel backend ENODEV: hci9 lists the adapters present" 3 $T/e $rc "no such adapter" "ENODEV" "hci0, hci1, hci2"
timeout 20 $RT scan --adapter tcp:127.0.0.1:9 --backend kernel --duration 1 $STATE >$T/o 2>$T/e; rc=$?
expect_error "--backend kernel without hciN is a usage error" 2 $T/e $rc "--backend kernel works with a kernel adapter only"

# --- (c) Error cases -------------------------------------------------------------------------
timeout 20 $RT scan --adapter hci9 --duration 1 $STATE >$T/o 2>$T/e; rc=$?
expect_error "ENODEV: hci9 lists the adapters present" 3 $T/e $rc "no such adapter" "ENODEV" "hci0, hci1, hci2"

mkdir -p /tmp/state-nobody && chmod 777 /tmp/state-nobody
if su -s /bin/sh -c true nobody 2>/dev/null; then
    timeout 20 su -s /bin/sh -c "$RT scan --adapter hci0 --duration 1 --state-dir /tmp/state-nobody" nobody \
        >$T/o 2>$T/e; rc=$?
    expect_error "EPERM: non-root user gets the setcap line" 3 $T/e $rc "permission denied" "CAP_NET_ADMIN" \
        "setcap cap_net_admin,cap_net_raw+ep"
    timeout 20 su -s /bin/sh -c "$RT scan --adapter hci0 --backend kernel --duration 1 --state-dir /tmp/state-nobody" nobody \
        >$T/o 2>$T/e; rc=$?
    expect_error "kernel backend EPERM: powering hci0 on as non-root names CAP_NET_ADMIN" 3 $T/e $rc \
        "Set Powered failed: Permission Denied" "CAP_NET_ADMIN" "setcap"
else
    bad "EPERM" "busybox su cannot switch to nobody"
fi

RFK=$(ls -d /sys/class/bluetooth/hci0/rfkill* 2>/dev/null | head -1)
if [ -n "$RFK" ]; then
    echo 1 > $RFK/soft
    timeout 20 $RT scan --adapter hci0 --duration 1 $STATE >$T/o 2>$T/e; rc=$?
    expect_error "ERFKILL: blocked adapter names rfkill unblock" 3 $T/e $rc "rfkill" "ERFKILL" "rfkill unblock bluetooth"
    timeout 20 $RT scan --adapter hci0 --backend kernel --duration 1 $STATE >$T/o 2>$T/e; rc=$?
    expect_error "kernel backend: adapter blocked by rfkill says why" 3 $T/e $rc \
        "blocked by rfkill" "rfkill unblock bluetooth"
    echo 0 > $RFK/soft
else
    bad "ERFKILL" "hci0 has no rfkill switch in sysfs"
fi

# --- Leave the adapter as found --------------------------------------------------------------
btmgmt --index 0 power on >>$T/btmgmt.log 2>&1
timeout 20 $RT adapters >$T/before 2>&1
timeout 30 $RT scan --adapter hci0 --duration 1 $STATE >$T/o 2>$T/e; rc=$?
timeout 20 $RT adapters >$T/after 2>&1
if grep -q '^hci0 .* up ' $T/before && [ $rc = 0 ] && grep -q "taking it down" $T/e && grep -q '^hci0 .* up .* free' $T/after; then
    ok "an adapter found up is taken down with a notice and brought back up"
    sed 's/^/    /' $T/e
else
    bad "adapter found up" "exit $rc"; show $T/before $T/e $T/after
fi

[ -f /monitor-tests.sh ] && . /monitor-tests.sh && monitor_tests   # Tests/VM/monitor-tests.sh
kill $G1 $G2 $HOLD $BTVIRT 2>/dev/null
echo "VMTEST DONE passed=$pass failed=$fail"
[ $fail = 0 ]
