#!/bin/sh
# `rtstack monitor` inside the VM: a suite that vm-tests.sh sources and runs as a scenario
# (monitor_tests), with vm-lib.sh's helpers. Self-contained: its own btvirt with two new
# controllers (their New Index and Delete Index must show), BlueZ's btgatt-server on one,
# rtstack's kernel backend on the other, one monitor watching both sides and every adapter.
monitor_tests() {
    M=$T/monitor
    mkdir -p $M
    $RT monitor --json --write $M/all.btsnoop >$M/all.json 2>$M/all.err &
    MON=$!
    sleep 0.5
    ls /sys/class/bluetooth | grep -v ':' >$M/before
    btvirt -L -l2 >$M/btvirt.log 2>&1 &
    MBTVIRT=$!
    wait_until 10 eval '[ "$(ls /sys/class/bluetooth | grep -vc :)" -ge $(($(wc -l <$M/before) + 2)) ]'
    sleep 2.5   # the kernel sets each new controller up, then powers it off again (auto-off)
    NEW=$(ls /sys/class/bluetooth | grep -v ':' | grep -vxF -f $M/before | sed 's/hci//' | sort -n | tr '\n' ' ')
    CA=$(echo $NEW | cut -d' ' -f1)   # rtstack's, kernel backend
    PB=$(echo $NEW | cut -d' ' -f2)   # btgatt-server's
    if [ -z "$CA" ] || [ -z "$PB" ]; then
        bad "monitor: a second btvirt made two adapters" "new: '$NEW'"; show $M/btvirt.log
        kill $MON $MBTVIRT 2>/dev/null
        return
    fi
    ADDR=$(address_of $PB)
    echo "    monitor: new adapters hci$CA (rtstack) and hci$PB ($ADDR, btgatt-server)"
    peripheral_on $PB
    advertise $PB 0d18 "VM Mon Heart"
    heart_server monheart $PB once
    rt 40 msession --adapter hci$CA --backend kernel --json --duration 10 --only heart --heart "$ADDR/public" \
        $STATE --no-cache
    src=$rc
    server_stop monheart
    kill $MBTVIRT 2>/dev/null
    wait $MBTVIRT 2>/dev/null
    sleep 1
    MON_CPU=$(awk '{print $14 + $15}' /proc/$MON/stat 2>/dev/null)
    kill -INT $MON
    finish $MON 10
    mrc=$rc

    # Adapter index events of the two new controllers.
    for n in $CA $PB; do
        if grep -q "\"type\":\"monitor\",\"adapter\":$n,\"name\":\"New Index\"" $M/all.json \
           && grep -q "\"type\":\"monitor\",\"adapter\":$n,\"name\":\"Delete Index\"" $M/all.json; then
            ok "monitor: New Index and Delete Index of hci$n"
        else
            bad "monitor: index events of hci$n" "exit $mrc"; grep '"type":"monitor"' $M/all.json | head -20 | show; show $M/all.err
        fi
    done
    # The kernel backend's management traffic to its adapter. The kernel names the sending
    # thread (comm), which for rtstack is one of its worker threads, so match the adapter.
    if grep "\"type\":\"monitor\",\"adapter\":$CA,\"name\":\"MGMT Command\"" $M/all.json | grep -q 'Set Powered' \
       && grep "\"type\":\"monitor\",\"adapter\":$CA,\"name\":\"MGMT Event\"" $M/all.json | grep -q 'Set Powered, Success'; then
        ok "monitor: the kernel backend's management commands to hci$CA and their answers"
        grep "\"adapter\":$CA,\"name\":\"MGMT Command\"" $M/all.json | sed 's/.*"summary":"\([^"]*\)".*/    \1/' | sort | uniq -c | head -6
    else
        bad "monitor: MGMT commands to hci$CA" "-"; grep '"name":"MGMT' $M/all.json | head -20 | show
    fi
    # ATT notifications decoded on both sides of the link: received on rtstack's adapter,
    # sent by btgatt-server's (about one a second).
    rx=$(grep "\"direction\":\"rx\",\"type\":\"acl\",\"adapter\":$CA,\"name\":\"ATT Handle Value Notification\"" $M/all.json | grep -c '"decoded":"[0-9]* bpm')
    tx=$(grep "\"direction\":\"tx\",\"type\":\"acl\",\"adapter\":$PB,\"name\":\"ATT Handle Value Notification\"" $M/all.json | grep -c '"decoded":"[0-9]* bpm')
    hr=$(grep -c '"event":"measurement".*"sensor":"heart"' $T/msession.out)
    echo "    monitor: $rx notifications received on hci$CA, $tx sent on hci$PB (decoded as bpm); the session printed $hr"
    if [ $src = 0 ] && [ "$hr" -ge 3 ] && [ "$rx" -ge "$hr" ] && [ "$tx" -ge "$rx" ] && [ "$tx" -le $((rx + 2)) ]; then
        ok "monitor: kernel-backend session and btgatt-server's side, ATT notifications decoded on both"
    else
        bad "monitor: notifications on both sides" "session exit $src, $hr measurements, rx $rx, tx $tx"
        show $T/msession.err; grep -v '"type":"monitor"' $M/all.json | grep "\"adapter\":\\($CA\\|$PB\\)," | head -40 | show
    fi
    if [ "$mrc" = 0 ] && grep -q '"summary":true' $M/all.json && grep '"summary":true' $M/all.json | grep -q '"decode_errors":0'; then
        ok "monitor: Ctrl-C ends it with exit 0 and a summary without decode errors"
        grep '"summary":true' $M/all.json | cut -c1-300 | sed 's/^/    /'
    else
        bad "monitor: clean end" "exit $mrc"; tail -3 $M/all.json | show; show $M/all.err
    fi
    # --write: the btsnoop 2001 file holds the same frames; --peer keeps only that link.
    frames=$(grep -c '"index":' $M/all.json)
    wrote=$($RT monitor --from $M/all.btsnoop --json --no-summary --no-gatt-cache | grep -c '"index":')
    peer=$($RT monitor --from $M/all.btsnoop --json --no-summary --peer "$ADDR" --filter att=notification | grep -c "\"adapter\":$CA,")
    other=$($RT monitor --from $M/all.btsnoop --json --no-summary --peer "$ADDR" | grep -vc "\"adapter\":$CA,")
    if [ "$wrote" = "$frames" ] && [ "$peer" = "$rx" ] && [ "$other" = 0 ]; then
        ok "monitor: --write kept all $frames frames; --peer $ADDR keeps hci$CA's link ($peer notifications)"
    else
        bad "monitor: --write / --peer" "frames $frames, written $wrote, peer $peer (expected $rx), other adapters $other"
    fi
    secs=$(awk "BEGIN{printf \"%.2f\", $MON_CPU / $(getconf CLK_TCK 2>/dev/null || echo 100)}")
    figure "monitor: $frames frames in the run, $secs s CPU (utime+stime)"
    # Without CAP_NET_RAW.
    if su -s /bin/sh -c true nobody 2>/dev/null; then
        timeout 20 su -s /bin/sh -c "$RT monitor --duration 1" nobody >$M/o 2>$M/e; rc=$?
        expect_error "monitor: non-root user gets the CAP_NET_RAW setcap line" 3 $M/e $rc "CAP_NET_RAW" \
            "setcap cap_net_raw+ep"
    else
        bad "monitor EPERM" "busybox su cannot switch to nobody"
    fi
}
