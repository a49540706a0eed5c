#!/bin/sh
# Runs inside the VM (see scripts/vm-test). Each check prints one line
#   VMTEST PASS name   or   VMTEST FAIL name: why
# and the script exits non-zero if any failed. One function per scenario; `scenario` runs it
# (unless rtstack.only= on the kernel command line, from RTSTACK_VM_ONLY, leaves it out), prints
# how long it took and fails it if the kernel logged an oops meanwhile.
#
# The world: btvirt -L -l4 gives LE-only controllers on one virtual air:
#   hci0  rtstack's (its user channel, or the kernel's with --backend kernel)
#   hci1  "VM Heart": BlueZ's btgatt-server (Heart Rate, notifications once a second after the
#         CCCD is written), a fresh one for every connecting check (it serves one connection)
#   hci2  "VM Speed": Tests/VM/gatt-peripheral (ours), Running Speed and Cadence at 10 Hz and
#         any number of links, for what btgatt-server cannot be: an RSC sensor, and a server
#         that stays up while the holding link below and rtstack's link come and go
#   hci3  holds a link to hci2 (gatt-peripheral -c), for btvirt's handle numbering: btvirt
#         (BlueZ emulator/btdev.c, 5.66 and upstream) numbers a new link's handle on each side
#         separately (the first free one from the same base) but tells the peripheral the
#         central's number; they agree only if both sides have as many links open, so a
#         central's second link is broken unless its peer already holds one. With hci3's link,
#         rtstack's first link (hci1, 0x002A both sides) and second (hci2, 0x002B) agree.
# Adapter-loss scenarios add a second btvirt (hci4 rtstack's, hci5 a btgatt-server) and make it
# vanish.
. /vm-lib.sh

ONLY=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^rtstack\.only=//p' | tr , ' ')
# scenario NAME [ARGS]: runs the function NAME with ARGS if selected.
scenario() {
    if [ -n "$ONLY" ] && ! echo " $ONLY " | grep -q " $1 "; then return 0; fi
    _scenario="$*"
    _started=$(now)
    echo "VMTEST SCENARIO $_scenario"
    "$@"
    figure "scenario $_scenario took $(seconds $_started $(now)) s"
    kernel_intact "$_scenario"
}
# opt_in NAME: runs NAME only when rtstack.only names it (diagnostics that are not checks).
opt_in() { echo " $ONLY " | grep -q " $1 " && scenario "$@"; }

bname() { [ "$1" = kernel ] && echo "kernel backend" || echo "user channel"; }
bargs() { [ "$1" = kernel ] && echo "--backend kernel"; }
# no_links N: hciN (a kernel adapter) has no LE link left.
no_links() { ! btmgmt --index $1 con 2>/dev/null | grep -qE '([0-9A-F]{2}:){5}[0-9A-F]{2}'; }
# fresh_heart: a new btgatt-server on hci1 for one connection, once the previous link is gone
# (a new socket on a link that is still up would attach to it, and the new server would never
# get a channel).
fresh_heart() {
    server_stop heart
    wait_until 10 no_links 1 || echo "    hci1 still has a link"
    heart_server heart 1 once
    HEART_LOG_FROM=$(($(wc -l <$T/heart.log) + 1))
}
# heart_log: what the btgatt-server started by the last fresh_heart printed. Its stdout is
# block-buffered, complete once it has exited, which it does when its link drops: wait for that
# while hci1 still has a link (a server that never got one prints nothing and is not waited for).
heart_log() {
    wait_until 10 eval '! kill -0 $(server_pid heart) 2>/dev/null || no_links 1'
    sleep 0.3
    tail -n +$HEART_LOG_FROM $T/heart.log
}
# btgatt-server's Device Name: 77 characters and the terminating NUL, 78 bytes (a long read at
# the default ATT MTU).
NAME="Very Long Test Device Name For Testing ATT Protocol Operations On GATT Server"
NAME_HEX=$(printf '%s' "$NAME" | hexdump -v -e '/1 "%02X"')00
NAME_BYTES=$(printf '%s' "$NAME" | hexdump -v -e '/1 "%02x "')00

# --- Before the Bluetooth modules: the kernel has no AF_BLUETOOTH --------------------------
no_kernel_bluetooth() {
    rt 20 o --adapter hci0 --duration 1 $STATE
    expect_error "no kernel Bluetooth: session exits 3 naming EAFNOSUPPORT" 3 $T/o.err $rc "EAFNOSUPPORT" "modprobe bluetooth"
    rt 20 o adapters
    expect_error "no kernel Bluetooth: adapters exits 3" 3 $T/o.err $rc "no Bluetooth support in this kernel"
}

# --- The world -----------------------------------------------------------------------------
world_up() {
    # Modules, in the order test-world.md documents.
    for m in sha3_generic jitterentropy_rng sha512_generic ctr drbg af_alg algif_hash algif_skcipher \
             ecb cmac rfkill crc16 ecc ecdh_generic bluetooth hci_vhci; do
        insmod /lib/modules/$m.ko 2>$T/e || { grep -q "File exists" $T/e || bad "insmod $m" "$(cat $T/e)"; }
    done
    mkdir -p /sys/kernel/debug && mount -t debugfs none /sys/kernel/debug
    btvirt -L -l4 >$T/btvirt.log 2>&1 &
    BTVIRT=$!
    wait_until 5 [ -e /sys/class/bluetooth/hci3 ]
    sleep 2.5   # the kernel sets each new controller up, then powers it off again (auto-off)
    if [ -e /sys/class/bluetooth/hci3 ]; then ok "btvirt made hci0..hci3"; else bad "btvirt" "no hci3"; show $T/btvirt.log; fi

    rt 20 adapters adapters
    sed 's/^/    /' $T/adapters.out
    if [ $rc = 0 ] && grep -q '^hci0 .* down .* free' $T/adapters.out && grep -q '^hci2 ' $T/adapters.out; then
        ok "adapters lists hci0..hci2, hci0 down and free"
    else
        bad "adapters" "exit $rc"; show $T/adapters.err
    fi
    A0=$(awk '$1=="hci0"{print $2}' $T/adapters.out)
    A1=$(awk '$1=="hci1"{print $2}' $T/adapters.out)
    A2=$(awk '$1=="hci2"{print $2}' $T/adapters.out)
    echo "    rtstack hci0 $A0; peripherals: hci1 $A1, hci2 $A2"

    for i in 1 2 3; do peripheral_on $i; done
    advertise 1 0d18 "VM Heart" || bad "add-adv hci1" "see btmgmt.log"
    advertise 2 1418 "VM Speed" || bad "add-adv hci2" "see btmgmt.log"
    gatt-peripheral -v -i 2 -s speed -n "VM Speed" 2>$T/gatt2.log &
    SPEED=$!
    sleep 0.5
    gatt-peripheral -i 3 -c "$A2" 2>$T/hold.log &
    HOLD=$!
    wait_until 6 grep -q "holds a link" $T/hold.log || { bad "hci3 holds a link to hci2" "-"; show $T/hold.log; }
    sed 's/^/    /' $T/hold.log
    sleep 0.5   # the kernel re-enables hci2's advertising after the link
}

# --- Every command on both backends, against btgatt-server -----------------------------------
scan_check() {
    b=$1
    if [ $b = kernel ]; then
        # The peripherals start advertising once the scan runs. A kernel race decides otherwise:
        # it drops reports that arrive before its discovery state is "finding", and btvirt
        # delivers the reports of devices already advertising within a millisecond of LE Set
        # Scan Enable, which the controller's duplicate filter then never repeats (rtstack's
        # 4 s discovery cycle recovers them, but only by chance within a short scan). Devices
        # that appear during the scan are reported deterministically.
        unadvertise 1
        unadvertise 2
        btmon -w $T/scanmon-$b.btsnoop >/dev/null 2>&1 &
        mon=$!
        RTSTACK_MGMT_TRACE=1 $RT scan --adapter hci0 --backend kernel --duration 6 $STATE >$T/scan-$b.out 2>$T/scan-$b.err &
        s=$!
        sleep 2
        advertise 1 0d18 "VM Heart" || bad "add-adv hci1 again" "see btmgmt.log"
        advertise 2 1418 "VM Speed" || bad "add-adv hci2 again" "see btmgmt.log"
        finish $s 40
        kill $mon 2>/dev/null
    else
        rt 30 scan-$b scan --adapter hci0 --duration 3 $STATE
    fi
    if [ $rc = 0 ] && grep -q "$A1.*VM Heart.*180D" $T/scan-$b.out && grep -q "$A2.*VM Speed.*1814" $T/scan-$b.out; then
        ok "$(bname $b): scan on hci0 sees hci1 and hci2 with names and services"
        grep -E "$A1|$A2" $T/scan-$b.out | tail -2 | sed 's/^/    /'
    else
        bad "$(bname $b): scan on hci0" "exit $rc"; show $T/scan-$b.out $T/scan-$b.err
        [ $b = kernel ] && $RT decode $T/scanmon-$b.btsnoop --brief 2>&1 | head -120 | show
    fi
    if [ $b = kernel ]; then
        rt 20 adapters adapters
        if grep -q '^hci0 .* down ' $T/adapters.out; then
            ok "kernel backend: hci0 left powered off, as found"
        else
            bad "kernel backend: hci0 as found" "-"; show $T/adapters.out
        fi
    fi
}

info_check() {
    b=$1
    rt 30 info-$b info --adapter hci0 $(bargs $b) $STATE
    if [ $rc = 0 ] && grep -q "$A0" $T/info-$b.out && grep -qi "version" $T/info-$b.out; then
        ok "$(bname $b): info shows hci0's address $A0 and its version"
        sed 's/^/    /' $T/info-$b.out | head -4
    else
        bad "$(bname $b): info" "exit $rc"; show $T/info-$b.out $T/info-$b.err
    fi
}

gatt_check() {
    b=$1
    fresh_heart
    rt 40 gatt-$b gatt "$A1/public" --adapter hci0 $(bargs $b) $STATE
    o=$T/gatt-$b.out
    if [ $rc = 0 ] && grep -q "service .*Heart Rate (180D)" $o && grep -q "Heart Rate Measurement (2A37).*Notify" $o \
        && grep -q "Client Characteristic Configuration (2902)" $o && grep -q "Body Sensor Location (2A38)" $o \
        && grep -q "= Chest" $o && grep -q "Heart Rate Control Point (2A39)" $o \
        && grep -qi "value: $NAME_BYTES\$" $o; then
        ok "$(bname $b): gatt shows btgatt-server's Heart Rate service, its values and the 78-byte device name"
        grep -E "180D|2A37|2A38" $o | head -4 | sed 's/^/    /'
    else
        bad "$(bname $b): gatt against btgatt-server" "exit $rc"; show $o $T/gatt-$b.err; heart_log | show
    fi
}

read_check() {
    b=$1
    fresh_heart
    rt 40 read-$b read "$A1/public" 2A38 --adapter hci0 $(bargs $b) $STATE
    if [ $rc = 0 ] && head -1 $T/read-$b.out | grep -q ': 01  = Chest$'; then
        ok "$(bname $b): read 2A38 from btgatt-server gives 01 = Chest"
        sed 's/^/    /' $T/read-$b.out
    else
        bad "$(bname $b): read 2A38" "exit $rc"; show $T/read-$b.out $T/read-$b.err; heart_log | show
    fi
    fresh_heart
    rt 40 readname-$b read "$A1/public" 2A00 --json --adapter hci0 $(bargs $b) $STATE
    value=$(json_field value <$T/readname-$b.out | tr a-f A-F)
    if [ $rc = 0 ] && [ "$value" = "$NAME_HEX" ]; then
        ok "$(bname $b): read 2A00 --json gives btgatt-server's whole 78-byte name (long read)"
    else
        bad "$(bname $b): read 2A00 (long read)" "exit $rc, value '$value'"; show $T/readname-$b.out $T/readname-$b.err
    fi
}

write_check() {
    b=$1
    # HRS 1.0 §3.3: 0x01 to the Heart Rate Control Point resets Energy Expended; btgatt-server
    # says so on stdout. A 2-byte value is answered with Invalid Attribute Value Length (0x0D).
    fresh_heart
    rt 40 write-$b write "$A1/public" 2A39 01 --adapter hci0 $(bargs $b) $STATE
    if [ $rc = 0 ] && heart_log | grep -q "HR: Energy Expended value reset"; then
        ok "$(bname $b): write 2A39 01 reaches btgatt-server's control point"
    else
        bad "$(bname $b): write 2A39 01" "exit $rc"; show $T/write-$b.out $T/write-$b.err; heart_log | show
    fi
    fresh_heart
    rt 40 writebad-$b write "$A1/public" 2A39 0102 --adapter hci0 $(bargs $b) $STATE
    if [ $rc = 1 ] && grep -qi "Invalid Attribute Value Length (0x0D)" $T/writebad-$b.err; then
        ok "$(bname $b): write 2A39 0102 exits 1 naming btgatt-server's Invalid Attribute Value Length (0x0D)"
        sed 's/^/    /' $T/writebad-$b.err | head -2
    else
        bad "$(bname $b): write refused by the peer" "exit $rc"; show $T/writebad-$b.out $T/writebad-$b.err
    fi
}

subscribe_check() {
    b=$1
    fresh_heart
    rt 40 sub-$b subscribe "$A1/public" 2A37 --duration 6 --json --adapter hci0 $(bargs $b) $STATE
    o=$T/sub-$b.out
    n=$(grep -c '"uuid":"2A37"' $o)
    outside=$(grep '"uuid":"2A37"' $o | sed -n 's/.*"decoded":"\([0-9]*\) bpm.*/\1/p' | awk '$1 < 90 || $1 > 129' | wc -l)
    decoded=$(grep '"uuid":"2A37"' $o | grep -c '"decoded":"[0-9]* bpm')
    heart_log >$T/sub-$b.peer
    if [ $rc = 0 ] && [ "$n" -ge 3 ] && [ "$decoded" = "$n" ] && [ "$outside" = 0 ] \
        && grep -q "HR: Measurement Enabled: true" $T/sub-$b.peer; then
        ok "$(bname $b): subscribe 2A37 enables btgatt-server's notifications and decodes $n values of 90-129 bpm"
        grep '"uuid":"2A37"' $o | head -2 | sed 's/^/    /'
    else
        bad "$(bname $b): subscribe 2A37" "exit $rc, $n values, $decoded decoded, $outside outside 90-129 bpm"
        show $o $T/sub-$b.err $T/sub-$b.peer
    fi
    # Issue 11 §6: when the last stream of a handle ends, its CCCD is written back to 0.
    if grep -q "HR: Measurement Enabled: false" $T/sub-$b.peer; then
        ok "$(bname $b): subscribe writes the CCCD back to 0 when it ends"
    else
        bad "$(bname $b): subscribe leaves the CCCD enabled when it ends" "btgatt-server never saw 0x0000"
    fi
}

# Both peers at once: the run session connects, discovers, subscribes and decodes. btmon records
# what every adapter's kernel side sees, for the report if it fails.
session_check() {
    b=$1
    fresh_heart
    btmon -w $T/monitor-$b.btsnoop >/dev/null 2>&1 &
    mon=$!
    extra=""
    [ $b = kernel ] && extra="--no-cache"
    $RT --adapter hci0 $(bargs $b) --json --duration 10 --only heart,speed --heart "$A1/public" --speed "$A2/public" \
        $STATE $extra --capture $T/session-$b.btsnoop >$T/session-$b.out 2>$T/session-$b.err &
    S=$!
    sleep 5
    rt 20 adapters2 adapters
    if [ $b = kernel ]; then
        if grep -q '^hci0 .* up .* free' $T/adapters2.out; then ok "kernel backend: hci0 stays the kernel's (up, no user channel)"
        else bad "kernel backend: adapters while running" "-"; show $T/adapters2.out; fi
    else
        # While the session holds hci0: the adapter shows as held, and a second open is refused.
        if grep -q '^hci0 .* up .* held' $T/adapters2.out; then ok "adapters shows hci0 held by the user channel"
        else bad "adapters while held" "-"; show $T/adapters2.out; fi
        rt 20 o scan --adapter hci0 --backend kernel --duration 1 $STATE
        expect_error "EBUSY: --backend kernel on hci0 held by a user channel" 3 $T/o.err $rc "busy" "EBUSY" "user channel"
        rt 20 o scan --adapter hci0 --duration 1 $STATE
        expect_error "EBUSY: second user channel on hci0" 3 $T/o.err $rc "busy" "EBUSY" "systemctl stop bluetooth"
    fi
    HWM=$(awk '/VmHWM/{print $2" "$3}' /proc/$S/status 2>/dev/null)
    RSS=$(awk '/VmRSS/{print $2" "$3}' /proc/$S/status 2>/dev/null)
    figure "$(bname $b) session VmHWM $HWM VmRSS $RSS"
    finish $S 40
    kill $mon 2>/dev/null
    o=$T/session-$b.out
    hr=$(measurements $o heart | wc -l)
    sp=$(measurements $o speed | wc -l)
    summary=$(grep '"event":"summary"' $o)
    lo=$(echo "$summary" | json_field heart_bpm_min)
    hi=$(echo "$summary" | json_field heart_bpm_max)
    echo "    $(bname $b) session: $hr heart-rate and $sp speed measurements, heart $lo-$hi bpm"
    if [ $rc = 0 ] && [ "$hr" -ge 5 ] && [ "$sp" -ge 30 ] && [ -n "$lo" ] && [ "$lo" -ge 90 ] && [ "$hi" -le 129 ] \
        && echo "$summary" | grep -q '"reconnections":{"heart":0,"speed":0'; then
        ok "$(bname $b): session on hci0, btgatt-server and gatt-peripheral at once, discovery, notifications"
        echo "$summary" | sed 's/^/    /'
    else
        bad "$(bname $b): session on hci0" "exit $rc, $hr heart, $sp speed, heart $lo-$hi bpm"
        grep -v '"event":"measurement"' $o | show; show $T/session-$b.err; heart_log | show; tail -5 $T/gatt2.log | show
        $RT decode $T/session-$b.btsnoop --brief 2>&1 | grep -v "Notification" | tail -80 | show
        echo "    --- btmon (all adapters, kernel side) ---"
        $RT decode $T/monitor-$b.btsnoop --brief 2>&1 | grep -v "Notification" | head -150 | show
    fi
    if [ $b = kernel ]; then
        # Issue 11: the kernel's real HCI traffic (from its monitor channel), not synthesized ACL.
        notes=$($RT decode $T/session-$b.btsnoop --filter att=notification --brief 2>/dev/null | grep -c "Handle Value Notification")
        creates=$($RT decode $T/session-$b.btsnoop --brief 2>/dev/null | grep -c "CMD LE .*Create Connection")
        completes=$($RT decode $T/session-$b.btsnoop --brief 2>/dev/null | grep -c "LE .*Connection Complete")
        if [ "$notes" -ge 20 ] && [ "$creates" -ge 2 ] && [ "$completes" -ge 2 ]; then
            ok "kernel backend: --capture holds the kernel's HCI traffic ($creates LE Create Connection, $completes completions) and $notes notifications"
        else
            bad "kernel backend: --capture" "$notes notifications, $creates creates, $completes completions decoded"
            $RT decode $T/session-$b.btsnoop --brief 2>&1 | head -30 | show
        fi
        wait_until 10 no_links 0 || echo "    hci0 still has links"   # dropped after their sockets closed
    fi
    server_stop heart
}

# --- Usage and permission errors -------------------------------------------------------------
error_cases() {
    rt 20 o --adapter hci9 --backend kernel --duration 1 $STATE
    expect_error "kernel backend ENODEV: hci9 lists the adapters present" 3 $T/o.err $rc "no such adapter" "ENODEV" "hci0, hci1, hci2"
    rt 20 o scan --adapter tcp:127.0.0.1:9 --backend kernel --duration 1 $STATE
    expect_error "--backend kernel without hciN is a usage error" 2 $T/o.err $rc "--backend kernel works with a kernel adapter only"
    rt 20 o scan --adapter hci9 --duration 1 $STATE
    expect_error "ENODEV: hci9 lists the adapters present" 3 $T/o.err $rc "no such adapter" "ENODEV" "hci0, hci1, hci2"

    mkdir -p /tmp/state-nobody && chmod 777 /tmp/state-nobody
    if su -s /bin/sh -c true nobody 2>/dev/null; then
        su -s /bin/sh -c "$RT scan --adapter hci0 --duration 1 --state-dir /tmp/state-nobody" nobody >$T/o.out 2>$T/o.err &
        finish $! 20
        expect_error "EPERM: non-root user gets the setcap line" 3 $T/o.err $rc "permission denied" "CAP_NET_ADMIN" \
            "setcap cap_net_admin,cap_net_raw+ep"
        su -s /bin/sh -c "$RT scan --adapter hci0 --backend kernel --duration 1 --state-dir /tmp/state-nobody" nobody >$T/o.out 2>$T/o.err &
        finish $! 20
        expect_error "kernel backend EPERM: powering hci0 on as non-root names CAP_NET_ADMIN" 3 $T/o.err $rc \
            "Set Powered failed: Permission Denied" "CAP_NET_ADMIN" "setcap"
    else
        bad "EPERM" "busybox su cannot switch to nobody"
    fi

    RFK=$(ls -d /sys/class/bluetooth/hci0/rfkill* 2>/dev/null | head -1)
    if [ -n "$RFK" ]; then
        echo 1 > $RFK/soft
        rt 20 o scan --adapter hci0 --duration 1 $STATE
        expect_error "ERFKILL: blocked adapter names rfkill unblock" 3 $T/o.err $rc "rfkill" "ERFKILL" "rfkill unblock bluetooth"
        rt 20 o scan --adapter hci0 --backend kernel --duration 1 $STATE
        expect_error "kernel backend: adapter blocked by rfkill says why" 3 $T/o.err $rc \
            "blocked by rfkill" "rfkill unblock bluetooth"
        echo 0 > $RFK/soft
    else
        bad "ERFKILL" "hci0 has no rfkill switch in sysfs"
    fi
}

adapter_found_up() {
    btmgmt --index 0 power on >>$T/btmgmt.log 2>&1
    rt 20 before adapters
    rt 30 o scan --adapter hci0 --duration 1 $STATE
    rt 20 after adapters
    if grep -q '^hci0 .* up ' $T/before.out && [ $rc = 0 ] && grep -q "taking it down" $T/o.err && grep -q '^hci0 .* up .* free' $T/after.out; then
        ok "an adapter found up is taken down with a notice and brought back up"
        sed 's/^/    /' $T/o.err
    else
        bad "adapter found up" "exit $rc"; show $T/before.out $T/o.err $T/after.out
    fi
    btmgmt --index 0 power off >>$T/btmgmt.log 2>&1   # as the scenarios after this one expect it
}

# --- A silent peer -----------------------------------------------------------------------------
# btgatt-server on hci1 listens and is then stopped (SIGSTOP): the kernel accepts the link and
# queues the ATT requests, nothing answers. The ATT bearer must time out after 30 s (Core v5.4
# Vol 3 Part F §3.3.3), the link be closed and tried again with backoff, while the speed link
# keeps streaming.
silent_peer() {
    b=$1
    server_stop heart
    wait_until 10 no_links 1
    heart_server heart 1 once
    kill -STOP $(server_pid heart)
    started=$(now)
    $RT --adapter hci0 $(bargs $b) --json --duration 40 --only heart,speed --heart "$A1/public" --speed "$A2/public" \
        $STATE >$T/silent-$b.out 2>$T/silent-$b.err &
    finish $! 70
    o=$T/silent-$b.out
    grep '"event":"state"' $o | grep '"sensor":"heart"' | awk '{ print }' >$T/silent-$b.heart
    up=$(grep '"state":"connected"' $T/silent-$b.heart | head -1 | json_field time)
    down=""
    [ -n "$up" ] && down=$(awk -v t="$up" '{ s = $0; sub(/.*"time":/, "", s); sub(/,.*/, "", s) }
        s + 0 > t + 0 && $0 !~ /"state":"(connected|ready)"/ { print s; exit }' $T/silent-$b.heart)
    again=""
    [ -n "$down" ] && again=$(awk -v t="$down" '{ s = $0; sub(/.*"time":/, "", s); sub(/,.*/, "", s) }
        s + 0 > t + 0 && /"state":"connected"/ { print s; exit }' $T/silent-$b.heart)
    late=0
    [ -n "$down" ] && late=$(measurements $o speed | awk -v t="$down" '$1 > t + 2' | wc -l)
    ready=$(grep -c '"state":"ready"' $T/silent-$b.heart)
    timeout=""
    [ -n "$down" ] && timeout=$(seconds $up $down)
    echo "    heart link up at ${up:-never}, dropped at ${down:-never}, up again at ${again:-never}; $late speed measurements after"
    [ -n "$timeout" ] && figure "$(bname $b) silent peer: ATT bearer given up ${timeout} s after the link came up; next link $(seconds $down ${again:-$down}) s later"
    if [ $rc = 0 ] && [ -n "$down" ] && awk -v x="$timeout" 'BEGIN { exit !(x >= 29 && x <= 40) }' \
        && [ -n "$again" ] && [ "$ready" = 0 ] && [ "$late" -ge 30 ] && grep -q '"event":"summary"' $o; then
        ok "$(bname $b): a silent peer's link is given up after the 30 s ATT timeout and tried again; the other link streams on"
    else
        bad "$(bname $b): silent peer" "exit $rc, ATT timeout ${timeout:-none} s, heart ready $ready times, retried at ${again:-never}, $late speed measurements after"
        grep -v '"event":"measurement"' $o | show; show $T/silent-$b.err
    fi
    server_stop heart
    [ $b = kernel ] && { wait_until 10 no_links 0 || echo "    hci0 still has links"; }
}

# --- Adapter loss ------------------------------------------------------------------------------
# second_world: another btvirt (hci4 for rtstack, hci5 a btgatt-server), on its own air, to be
# made to vanish. Sets BTVIRT2, A5.
second_world() {
    btvirt -L -l2 >$T/btvirt2.log 2>&1 &
    BTVIRT2=$!
    wait_until 5 [ -e /sys/class/bluetooth/hci5 ] || { bad "second btvirt" "no hci5"; show $T/btvirt2.log; return 1; }
    sleep 2.5   # auto-off
    A5=$(address_of 5)
    peripheral_on 5
    advertise 5 0d18 "VM Heart 2"
    heart_server heart2 5 once
}

# The controller rtstack uses vanishes (its btvirt is killed: /dev/vhci closes, the kernel
# unregisters hci4 and hci5) and does not come back. The session must end with exit 3 naming
# hci4 (after whatever bounded wait for its return rtstack chooses, up to 60 s here), not hang.
adapter_vanishes() {
    b=$1
    second_world || return
    started=$(now)
    $RT --adapter hci4 $(bargs $b) --json --duration 60 --only heart --heart "$A5/public" $STATE \
        >$T/vanish-$b.out 2>$T/vanish-$b.err &
    S=$!
    if ! wait_until 30 eval '[ $(measurements $T/vanish-$b.out heart | wc -l) -ge 2 ]'; then
        bad "$(bname $b): adapter vanishes" "no heart-rate measurements from hci5 before"; show $T/vanish-$b.out $T/vanish-$b.err
    fi
    gone=$(now)
    kill $BTVIRT2
    finish $S 60
    ended=$(now)
    figure "$(bname $b): hci4 vanished; rtstack ended $(seconds $gone $ended) s later with exit $rc"
    if [ $rc = 3 ] && grep -q "hci4" $T/vanish-$b.err; then
        ok "$(bname $b): when hci4 vanishes the session exits 3 naming it"
        sed 's/^/    /' $T/vanish-$b.err | tail -2
    else
        bad "$(bname $b): adapter vanishes" "exit $rc $(seconds $gone $ended) s after hci4 was removed"
        grep -v '"event":"measurement"' $T/vanish-$b.out | show; show $T/vanish-$b.err
    fi
    server_stop heart2
}

# recovery_check NAME DESCRIPTION TAKE_AWAY GIVE_BACK [up]: a kernel-backend session streaming
# heart rate from a btgatt-server that is started again after each connection; TAKE_AWAY makes
# hci0 unusable, 3 s later GIVE_BACK returns it. The links must reconnect and notifications
# resume; the figure is the time from the GIVE_BACK command to the next measurement
# (btgatt-server notifies 1 s after its CCCD is written, so it includes that second). With "up"
# hci0 is powered on before the session: rtstack then leaves its power to whoever turned it off
# (it powers again only an adapter it powered on itself, as after an rfkill block).
recovery_check() {
    what=$1 say=$2 take=$3 give=$4
    server_stop heart
    wait_until 10 no_links 1
    [ "${5:-}" = up ] && power_on
    heart_server heart 1 respawn
    # Each line is stamped with the VM's clock as it arrives: rtstack's own "time" counts from its
    # start, which TCG delays by a varying fraction of a second.
    rm -f $T/$what.out $T/$what.fifo && mkfifo $T/$what.fifo && : >$T/$what.out
    stamp <$T/$what.fifo $T/$what.out >$T/$what.stamped &
    $RT --adapter hci0 --backend kernel --json --duration 80 --only heart --heart "$A1/public" $STATE \
        >$T/$what.fifo 2>$T/$what.err &
    S=$!
    if ! wait_until 30 eval '[ $(measurements $T/$what.out heart | wc -l) -ge 2 ]'; then
        bad "kernel backend: $say" "no heart-rate measurements before"; show $T/$what.out $T/$what.err
    fi
    $take
    if ! wait_until 2 no_links 1; then
        # btvirt has no supervision timeout: a peripheral whose central vanished without a
        # Disconnect (an rfkill block closes the adapter without one) keeps its link for good.
        # End it from hci1's side, as its supervision timeout would.
        echo "    hci1 still holds a link to hci0: ended from hci1 (btvirt has no supervision timeout)"
        btmgmt --index 1 disconnect -t 1 $A0 >>$T/btmgmt.log 2>&1
    fi
    sleep 3
    back=$(now)   # the figure counts from the command that returns the adapter
    $give
    if wait_until 30 eval '[ -n "$(stamped_after $T/$what.stamped heart $back)" ]'; then
        next=$(stamped_after $T/$what.stamped heart $back)
        figure "kernel backend: $say: first heart-rate measurement $(seconds $back $next) s after hci0 was given back"
        recovered=1
    else
        recovered=0
    fi
    kill -TERM $S 2>/dev/null   # ends the session cleanly
    finish $S 20
    if [ $recovered = 1 ] && [ $rc = 0 ] && grep -q '"event":"summary"' $T/$what.out; then
        ok "kernel backend: $say: the link reconnects and notifications resume"
        grep '"event":"summary"' $T/$what.out | sed 's/^/    /'
    else
        bad "kernel backend: $say" "recovered: $recovered (no measurement within 30 s of hci0's return), exit $rc"
        grep -v '"event":"measurement"' $T/$what.out | show; show $T/$what.err; tail -20 $T/heart.log | show
    fi
    server_stop heart
    btmgmt --index 0 power off >>$T/btmgmt.log 2>&1
}
power_off() { btmgmt --index 0 power off >>$T/btmgmt.log 2>&1; }
power_on() { btmgmt --index 0 power on >>$T/btmgmt.log 2>&1; }
rfkill_block() { echo 1 >$(ls -d /sys/class/bluetooth/hci0/rfkill* | head -1)/soft; }
rfkill_unblock() { echo 0 >$(ls -d /sys/class/bluetooth/hci0/rfkill* | head -1)/soft; }
power_cycle() { recovery_check powercycle "hci0 powered off and on (btmgmt)" power_off power_on up; }
rfkill_cycle() { recovery_check rfkill "hci0 rfkill-blocked and unblocked" rfkill_block rfkill_unblock; }

# --- Diagnostics (opt-in: RTSTACK_VM_ONLY=kernel_silent_link_drop) ------------------------------
# The kernel defect of Docs/embedded.md: an L2CAP socket whose LE link carried no data from the
# peer is closed after the link dropped. hci1 advertises with no ATT server (silent); rtstack
# (--backend kernel), then BlueZ's btgatt-client, connects; hci1 powers off; the client closes
# its socket. Debian's 6.1.192 hits "kernel BUG at lib/list_debug.c:56" in hci_chan_del each
# time (the closing thread dies in the kernel; the run goes on).
kernel_silent_link_drop() {
    server_stop heart
    wait_until 10 no_links 1
    $RT --adapter hci0 --backend kernel --json --duration 20 --only heart --heart "$A1/public" $STATE \
        >$T/drop.out 2>$T/drop.err &
    S=$!
    wait_until 20 grep -q '"sensor":"heart".*"state":"connected"' $T/drop.out || echo "    rtstack's link never came up"
    btmgmt --index 1 power off >>$T/btmgmt.log 2>&1
    sleep 3
    finish $S 30
    if kernel_intact "rtstack closing an L2CAP socket after its silent link dropped"; then
        ok "kernel: rtstack closing an L2CAP socket after its silent link dropped leaves the kernel intact"
    fi
    peripheral_on 1
    btmgmt --index 0 power on >>$T/btmgmt.log 2>&1   # btgatt-client does not power it
    wait_until 10 no_links 1
    [ -p $T/client.in ] || mkfifo $T/client.in
    btgatt-client -i hci0 -d "$A1" 0<>$T/client.in >$T/client.log 2>&1 &
    C=$!
    wait_until 20 grep -q "Connecting to device... Done" $T/client.log || echo "    btgatt-client's link never came up"
    btmgmt --index 1 power off >>$T/btmgmt.log 2>&1
    finish $C 10
    if kernel_intact "btgatt-client closing an L2CAP socket after its silent link dropped"; then
        ok "kernel: btgatt-client closing an L2CAP socket after its silent link dropped leaves the kernel intact"
    fi
    peripheral_on 1
    btmgmt --index 0 power off >>$T/btmgmt.log 2>&1
}

# --- The run -------------------------------------------------------------------------------------
scenario no_kernel_bluetooth
world_up
for b in user kernel; do
    scenario scan_check $b
    scenario info_check $b
    scenario gatt_check $b
    scenario read_check $b
    scenario write_check $b
    scenario subscribe_check $b
    scenario session_check $b
done

# Other suites: Tests/VM/NAME-tests.sh (scripts/vm-test copies it to /) defines one function,
# NAME_tests, run here with vm-lib.sh's helpers and the world as the checks above leave it:
# hci0 down and free; hci1 advertising "VM Heart" with no server (start one with heart_server
# or fresh_heart); hci2 serving RSC (gatt-peripheral); hci3 holding a link to hci2.
for suite in /*-tests.sh; do
    [ "$suite" = /vm-tests.sh ] || [ ! -f "$suite" ] && continue
    . "$suite"
    scenario "$(basename "$suite" -tests.sh)_tests"
done

scenario error_cases
scenario adapter_found_up
scenario silent_peer user
scenario adapter_vanishes user
scenario power_cycle
scenario rfkill_cycle
scenario adapter_vanishes kernel
scenario silent_peer kernel
opt_in kernel_silent_link_drop

if [ -z "$ONLY" ] && [ "$OOPS_SEEN" = 0 ]; then ok "kernel log: no BUG, oops, list corruption or warning in the whole run"; fi
server_stop heart
kill $SPEED $HOLD $BTVIRT 2>/dev/null
echo "VMTEST DONE passed=$pass failed=$fail"
[ $fail = 0 ]
