# Issue 19: the iOS-shaped CoreBluetooth apps (Tests/CoreBluetoothApps: NSObject delegates, a nil
# queue, dispatchMain; run by cb-apps, a static binary of its own: Foundation never enters
# rtstack) on hci0 through the user channel and through the kernel backend, the adapter given as
# an app on a board gets it: RTSTACK_ADAPTER, RTSTACK_BACKEND, RTSTACK_STATE_DIR.
#
# Peers: hci1 "VM Heart", BlueZ's btgatt-server (Heart Rate notified once a second; its 78-byte
# Device Name, readable and writable), and hci2 "VM Speed", gatt-peripheral (RSC at 10 Hz).
#   (a) scan list: both rows once each with an RSSI; tap VM Heart, every readable value read
#   (b) the runner's sensors by advertised service, live values, End Session. Two sensors: the VM
#       has no third peripheral with a service of its own (the Thingy of the Bumble world), and
#       btvirt's handle numbering (vm-tests.sh) breaks a third simultaneous link
#   (c) scan by service (180D) + read/write: btgatt-server's only readable and writable
#       characteristic is the Device Name (2A00, in 1800); hci1 ends the link, the app scans
#       again and reads the name of the btgatt-server that took over (a fresh one, the long name)
#   (d) one central, VM Heart and VM Speed connected and disconnected one by one, then VM Heart
#       again: the same object
# Every app scans before its peers advertise (the kernel backend drops the reports of devices
# already advertising when its scan starts: see scan_check in vm-tests.sh), and VM Heart's link
# comes up before VM Speed's (btvirt's handle numbering). RTSTACK_VM_ONLY=corebluetooth_tests
# runs only this suite.

CB=/usr/bin/cb-apps

corebluetooth_tests() {
    if [ ! -x $CB ]; then bad "CoreBluetooth apps" "no $CB in the initramfs (scripts/vm-test builds it)"; return; fi
    for b in user kernel; do
        for shape in cb_scan_list cb_runner cb_led cb_fleet; do
            cb_selected $shape || continue
            _t0=$(now)
            $shape $b
            figure "$(bname $b): CoreBluetooth $shape took $(seconds $_t0 $(now)) s"
        done
    done
    cb_air_back
}
# cb_selected SHAPE: RTSTACK_VM_ONLY="corebluetooth_tests cb_fleet …" runs only the shapes named.
cb_selected() { ! echo " $ONLY " | grep -q " cb_" || echo " $ONLY " | grep -q " $1 "; }

# --- Helpers ---------------------------------------------------------------------------------
# cb_start B NAME ARGS...: cb-apps ARGS in the background on hci0 through backend B; stdout (one
# fact a line, flushed) in $CB_OUT, stderr beside it; CB_PID. Returns once the app scans.
cb_start() {
    _b=$1 _n=$2
    shift 2
    _backend=user-channel
    [ $_b = kernel ] && _backend=kernel
    CB_OUT=$T/cb-$_n-$_b.out CB_ERR=$T/cb-$_n-$_b.err
    # Each line also goes, led by the VM's uptime as it arrives, to $CB_OUT.stamped (for the report).
    rm -f $CB_OUT.fifo && mkfifo $CB_OUT.fifo && : >$CB_OUT
    stamp <$CB_OUT.fifo $CB_OUT >$CB_OUT.stamped &
    RTSTACK_ADAPTER=hci0 RTSTACK_BACKEND=$_backend RTSTACK_STATE_DIR=/tmp/state $CB "$@" >$CB_OUT.fifo 2>$CB_ERR &
    CB_PID=$!
    _launched=$(now)
    if cb_said '^scanning' 20; then figure "$(bname $_b): cb-apps $_n scanning $(seconds $_launched $(now)) s after its launch"
    else echo "    cb-apps $* does not scan"; fi
}
# cb_said PATTERN [SECONDS]: waits until cb-apps printed a line matching PATTERN (grep -E).
cb_said() { wait_until ${2:-30} grep -qE "$1" $CB_OUT; }
# cb_fact PATTERN: the lines of cb-apps matching PATTERN; cb_has PATTERN: there is one.
cb_fact() { grep -E "$1" $CB_OUT; }
cb_has() { grep -qE "$1" $CB_OUT; }
cb_show() { show $CB_OUT.stamped $CB_ERR; }
# Staging the air. The kernel backend drops the reports of devices already advertising when its
# scan starts (scan_check in vm-tests.sh): through it, an app's peers start advertising once it
# scans (cb_hold before cb_start, cb_release after). The user channel sees them either way.
# cb_hold B N...: hciN stop advertising (through the kernel backend only).
cb_hold() {
    _b=$1
    shift
    [ $_b = kernel ] || return 0
    for _i; do unadvertise $_i; done
}
# cb_release B N...: hciN advertise again (after cb_hold B N...).
cb_release() {
    _b=$1
    shift
    [ $_b = kernel ] || return 0
    for _i; do cb_on $_i; done
}
# cb_on N: hci1 advertises "VM Heart", hci2 "VM Speed" (after an unadvertise).
cb_on() {
    case $1 in
        1) advertise 1 0d18 "VM Heart" || echo "    add-adv hci1 failed" ;;
        2) advertise 2 1418 "VM Speed" || echo "    add-adv hci2 failed" ;;
    esac
}
# cb_air_back: the world as the other suites expect it: both peers advertising, no server, hci0
# down (an app leaves the adapter it powered through the kernel backend powered: it exits with
# exit(), and CoreBluetooth has no call that closes a manager).
cb_air_back() { server_stop heart; unadvertise 1; unadvertise 2; cb_on 1; cb_on 2; btmgmt --index 0 power off >>$T/btmgmt.log 2>&1; }
# cb_heart_back: hci1, taken off the air before its link ended, advertises again once the
# respawned btgatt-server listens (a link that came up before would find no server:
# btgatt-server serves one connection a process).
cb_heart_back() {
    wait_until 15 listening $A1 || echo "    no btgatt-server listens on hci1 again"
    cb_on 1
}
# cb_heart MODE: a btgatt-server on hci1 (once or respawn), its output from now in cb_heart_log.
cb_heart() {
    server_stop heart
    wait_until 10 no_links 1 || echo "    hci1 still has a link"
    heart_server heart 1 $1
    CB_HEART_FROM=$(($(wc -l <$T/heart.log) + 1))
}
cb_heart_log() { tail -n +$CB_HEART_FROM $T/heart.log; }
# cb_heart_done: what a "once" server printed, complete once it has exited (its link is gone).
cb_heart_done() { server_gone heart 10; sleep 0.3; cb_heart_log; }
# links N: how many LE links hciN has.
links() { btmgmt --index $1 con 2>/dev/null | grep -cE '^([0-9A-F]{2}:){5}[0-9A-F]{2} type LE'; }
# end_links N: hciN ends each of its links (Remote User Terminated Connection), as a peripheral
# going away does; the central's address is rtstack's random static one on the user channel.
end_links() {
    btmgmt --index $1 con 2>/dev/null | while read -r _addr _t _le _kind; do
        case "$_kind" in Public) _type=1 ;; Random) _type=2 ;; *) continue ;; esac
        btmgmt --index $1 disconnect -t $_type $_addr >>$T/btmgmt.log 2>&1
    done
}
# cb_end B: the app's exit (status in rc, 0 once every step happened); the kernel backend's links
# are gone from hci0 too.
cb_end() {
    finish $CB_PID ${2:-30}
    [ $1 = kernel ] && { wait_until 10 no_links 0 || echo "    hci0 still has links"; }
}
# hex TEXT: TEXT's bytes in upper-case hex.
hex() { printf '%s' "$1" | hexdump -v -e '/1 "%02X"'; }

# --- (a) Scan list, tap, read ----------------------------------------------------------------
cb_scan_list() {
    b=$1
    cb_heart once
    cb_hold $b 1 2
    cb_start $b scanlist scan-list "VM Heart" "VM Speed"
    cb_release $b 1 2
    cb_end $b
    cb_heart_done >$T/cb-scanlist-$b.peer
    rows=$(cb_fact '^row VM (Heart|Speed) rssi=-?[0-9]+ discoveries=1$' | wc -l)
    # btvirt has no radio: its reports carry 127, HCI's "RSSI not available", which iOS passes on too.
    rssi_bad=$(cb_fact '^row ' | sed -n 's/.* rssi=\(-\{0,1\}[0-9]*\) .*/\1/p' | awk '($1 < -127 || $1 > 20) && $1 != 127' | wc -l)
    if [ $rc = 0 ] && [ "$rows" = 2 ] && [ "$rssi_bad" = 0 ] && cb_has '^value 2A38 01$' \
        && cb_has "^value 2A00 $NAME_HEX\$" \
        && cb_has '^connected state=connected scanning=false retrieved=true retrieved-connected=true$' \
        && cb_has '^disconnected state=disconnected services=nil$' && grep -q "GAP Device Name Read called" $T/cb-scanlist-$b.peer; then
        ok "$(bname $b): CoreBluetooth scan list: VM Heart and VM Speed once each with an RSSI; tapped, VM Heart's values read (01, the 78-byte name)"
        cb_fact '^(row|value 2A38)' | sed 's/^/    /'
    else
        bad "$(bname $b): CoreBluetooth scan list" "exit $rc, $rows rows once each, $rssi_bad RSSIs out of range"
        cb_show; show $T/cb-scanlist-$b.peer
    fi
}

# --- (b) The runner's sensors, End Session ---------------------------------------------------
cb_runner() {
    b=$1
    cb_heart once
    unadvertise 2   # VM Heart's link first (btvirt's handle numbering)
    cb_hold $b 1
    cb_start $b runner runner 180D:180D:2A37 1814:1814:2A53
    cb_release $b 1
    wait_until 20 eval '[ "$(links 1)" = 1 ]' || echo "    VM Heart's link did not come up"
    cb_on 2
    # After End Session the peers' links go (the kernel backend's a moment later, see cb_fleet):
    # hci1 none, hci2 only hci3's.
    peers_gone=""
    if cb_said '^ended ' 60; then
        _t=$(now)
        wait_until 10 eval '[ "$(links 1) $(links 2)" = "0 1" ]' && peers_gone=$(seconds $_t $(now))
    fi
    peers_after="$(links 1) $(links 2)"
    cb_end $b 30
    cb_heart_done >$T/cb-runner-$b.peer
    # btgatt-server: flags 06 (or 0E with Energy Expended), 90-129 bpm; gatt-peripheral: RSC
    # flags 00, speed 768-895/256 m/s, cadence 160-179.
    hr=0 hr_bad=0 rsc=0 rsc_bad=0 H='[0-9A-F][0-9A-F]'
    for v in $(cb_fact '^value 2A37 ' | awk '{ print $3 }'); do
        hr=$((hr + 1))
        case $v in 06$H | 0E$H$H$H) bpm=$((0x$(echo $v | cut -c3-4))) ;; *) bpm=0 ;; esac
        [ $bpm -ge 90 ] && [ $bpm -le 129 ] || hr_bad=$((hr_bad + 1))
    done
    for v in $(cb_fact '^value 2A53 ' | awk '{ print $3 }'); do
        rsc=$((rsc + 1))
        case $v in 00$H$H$H) cadence=$((0x$(echo $v | cut -c7-8))) ;; *) cadence=0 ;; esac
        [ $cadence -ge 160 ] && [ $cadence -le 179 ] || rsc_bad=$((rsc_bad + 1))
    done
    ended=$(cb_fact '^ended VM (Heart|Speed) error=none state=disconnected$' | wc -l)
    if [ $rc = 0 ] && [ "$hr" -ge 3 ] && [ "$hr_bad" = 0 ] && [ "$rsc" -ge 3 ] && [ "$rsc_bad" = 0 ] \
        && cb_has '^notifying 2A37,2A53$' && [ "$ended" = 2 ] && [ "$peers_after" = "0 1" ] \
        && grep -q "HR: Measurement Enabled: true" $T/cb-runner-$b.peer; then
        ok "$(bname $b): CoreBluetooth runner: VM Heart and VM Speed by advertised service, $hr heart-rate and $rsc RSC values live, End Session ends both links (the peers' ${peers_gone} s later)"
        cb_fact '^(connected|value 2A37)' | head -4 | sed 's/^/    /'
    else
        bad "$(bname $b): CoreBluetooth runner" "exit $rc, $hr heart-rate values ($hr_bad malformed), $rsc RSC ($rsc_bad malformed), $ended ended cleanly, links of hci1 and hci2 10 s after End Session: $peers_after (expected 0 1)"
        cb_show; show $T/cb-runner-$b.peer
    fi
}

# --- (c) Scan by service, read/write, the board goes away, scan again ---------------------------
cb_led() {
    b=$1
    cb_heart respawn
    cb_hold $b 1
    cb_start $b led led 180D 1800 2A00 "Run 1"
    cb_release $b 1
    if cb_said '^waiting for the board' 40; then
        unadvertise 1   # gone: it advertises again once the app has seen the link end
        end_links 1
        cb_said '^disconnected ' 20 && cb_heart_back
    fi
    cb_end $b 40
    server_stop heart
    reads=$(cb_fact '^read ' | awk '{ print $2 }' | tr '\n' ' ')
    want="$NAME_HEX $(hex "Run 1") $NAME_HEX "
    # btgatt-server prints "Device disconnected" when its link ends: the first server's (hci1
    # ended it) and the second's (the app's cancel).
    if [ $rc = 0 ] && [ "$reads" = "$want" ] && cb_has '^write error=none$' \
        && cb_has '^disconnected error=CBErrorDomain/7 scanning=true$' && cb_has '^disconnected error=none$' \
        && cb_heart_log | grep -q "GAP Device Name Write called" && [ "$(cb_heart_log | grep -c 'Device disconnected')" -ge 2 ]; then
        ok "$(bname $b): CoreBluetooth scan by service: the 78-byte name read, 'Run 1' written and read back; hci1 ends the link (CBError.peripheralDisconnected), the app scans again and reads the new server's name"
    else
        bad "$(bname $b): CoreBluetooth scan by service, read/write, rescan" "exit $rc, reads '$reads'"
        cb_show; cb_heart_log | show
    fi
}

# --- (d) One central, N devices --------------------------------------------------------------
cb_fleet() {
    b=$1
    cb_heart respawn
    cb_hold $b 1 2
    cb_start $b fleet fleet 180D,1814 "VM Heart" "VM Speed"
    cb_release $b 1 2
    # The peers' side: hci1 has rtstack's link while the app shows VM Heart connected, hci2 it and
    # hci3's; each goes once the app reports the disconnection (the kernel backend's a moment
    # later: the kernel ends an idle link itself after its socket closed). The app waits 3 s before
    # connecting VM Heart again; its next btgatt-server must listen by then. Through the user
    # channel it does (the link ends at once, the server with it, and the next listens within a
    # second); VM Heart stays on the air, as a user-channel LE Create Connection to a btvirt device
    # that is not advertising at that moment never completes (btvirt matches it once). Through the
    # kernel backend the idle link lingers 2-3 s, so hci1 leaves the air until the next server
    # listens (cb_heart_back): the kernel scans before it connects, and waits.
    peers_during="" heart_gone=""
    if cb_said '^all connected' 60; then
        peers_during="$(links 1) $(links 2)"
        [ $b = kernel ] && unadvertise 1
    fi
    if cb_said '^disconnected VM Heart .*later-ones-connected' 30; then
        _t=$(now)
        wait_until 10 eval '[ "$(links 1)" = 0 ]' && heart_gone=$(seconds $_t $(now))
        [ $b = kernel ] && cb_heart_back
    fi
    cb_end $b 60
    wait_until 10 eval '[ "$(links 1) $(links 2)" = "0 1" ]'
    peers_after="$(links 1) $(links 2)"
    server_stop heart
    if [ $rc = 0 ] && cb_has '^listed 2$' && cb_has '^connected VM Heart connections=1$' && cb_has '^connected VM Speed connections=1$' \
        && [ "$peers_during" = "1 2" ] && [ -n "$heart_gone" ] && [ "$peers_after" = "0 1" ] \
        && cb_has '^disconnected VM Heart error=none later-ones-connected=true$' \
        && cb_has '^disconnected VM Speed error=none later-ones-connected=true$' \
        && cb_has '^reconnected VM Heart connections=2 same-object=true listed=2$'; then
        ok "$(bname $b): CoreBluetooth fleet: VM Heart and VM Speed connected and disconnected one by one (the peers' links follow: hci1's gone ${heart_gone} s after its didDisconnect), VM Heart again as the same object"
    else
        bad "$(bname $b): CoreBluetooth fleet" "exit $rc, links of hci1 and hci2 with both connected: '$peers_during' (expected 1 2), hci1's gone ${heart_gone:-never} s after VM Heart's disconnection, at the end '$peers_after' (expected 0 1)"
        cb_show; cb_heart_log | show
    fi
}
