#!/bin/sh
# Issue 17 §5: a kernel-backend session that scans for its heart-rate sensor, started right after
# a kernel-backend `subscribe` on the same adapter has ended and that subscribe's peer has been
# powered off, must find the sensor that does advertise. Once it stayed "scanning" for all of its
# 8 s. A suite that vm-tests.sh sources and runs as a scenario (rediscovery_tests), with
# vm-lib.sh's helpers. Self-contained: its own btvirt with three new controllers on their own air:
#   C  rtstack's (--backend kernel)
#   P  the subscribe's peer: a btgatt-server advertising Heart Rate, powered off after each round
#   H  a btgatt-server advertising Heart Rate (0x180D), which the session must find and stream from
# The sequence runs REDISCOVERY_ROUNDS times (20); each session is ended (SIGTERM) at its first
# measurement, so a round costs a few seconds. btmon records the management and HCI traffic of
# every adapter; the first failing round's management commands and answers are shown.
rediscovery_tests() {
    R=$T/rediscovery
    mkdir -p $R
    ls /sys/class/bluetooth | grep -v ':' >$R/before
    btvirt -L -l3 >$R/btvirt.log 2>&1 &
    RBTVIRT=$!
    wait_until 10 eval '[ "$(ls /sys/class/bluetooth | grep -vc :)" -ge $(($(wc -l <$R/before) + 3)) ]'
    sleep 2.5   # auto-off
    NEW=$(ls /sys/class/bluetooth | grep -v ':' | grep -vxF -f $R/before | sed 's/hci//' | sort -n | tr '\n' ' ')
    C=$(echo $NEW | cut -d' ' -f1) P=$(echo $NEW | cut -d' ' -f2) H=$(echo $NEW | cut -d' ' -f3)
    if [ -z "$H" ]; then
        bad "rediscovery: a btvirt made three adapters" "new: '$NEW'"; show $R/btvirt.log
        kill $RBTVIRT 2>/dev/null
        return
    fi
    AP=$(address_of $P) AH=$(address_of $H)
    echo "    rediscovery: hci$C rtstack's, hci$P ($AP) the subscribe's peer, hci$H ($AH) the one found"
    peripheral_on $P
    advertise $P 0f18 "VM Gone Peer"   # Battery Service: not what the session looks for
    peripheral_on $H
    advertise $H 0d18 "VM Found Heart"
    heart_server rfound $H respawn
    rounds=${REDISCOVERY_ROUNDS:-20}
    found=0 i=0 first_failed="" times=""
    while [ $i -lt $rounds ]; do
        i=$((i + 1))
        t0=$(now)
        heart_server rgone $P once
        btmon -w $R/round-$i.btsnoop >/dev/null 2>&1 &
        RMON=$!
        sleep 0.3
        rt 30 rsub subscribe "$AP/public" 2A37 --duration 1 --json --adapter hci$C --backend kernel $STATE
        subrc=$rc
        t1=$(now)
        btmgmt --index $P power off >>$T/btmgmt.log 2>&1
        # The session scans for any Heart Rate sensor: only H advertises now.
        started=$(now)
        $RT --adapter hci$C --backend kernel --json --duration 8 --only heart $STATE --no-cache \
            >$R/session-$i.out 2>$R/session-$i.err &
        S=$!
        wait_until 12 eval '[ -n "$(measurements $R/session-$i.out heart)" ] || ! kill -0 $S 2>/dev/null'
        got=$(now)
        kill -TERM $S 2>/dev/null
        finish $S 10
        if [ -n "$(measurements $R/session-$i.out heart)" ] && grep -q "\"address\":\"$AH" $R/session-$i.out; then
            found=$((found + 1))
            times="$times $(seconds $started $got)"
        else
            echo "    round $i: no measurement (subscribe exit $subrc, session exit $rc):"
            grep -v '"event":"measurement"' $R/session-$i.out | show; show $R/session-$i.err
            [ -n "$first_failed" ] || first_failed=$i
        fi
        kill $RMON 2>/dev/null
        wait $RMON 2>/dev/null
        if [ -n "${REDISCOVERY_SHOW:-}" ]; then   # experiments: every round's timeline on hci$C
            echo "    round $i: session started at $started, first measurement at $got"
            $RT decode $R/round-$i.btsnoop --brief 2>&1 | grep " hci$C " | grep -v "ACL\|Number Of Completed\|ATT" | tail -40 | cut -c1-150 | show
        fi
        [ "$first_failed" = $i ] || rm -f $R/round-$i.btsnoop
        server_stop rgone
        peripheral_on $P
        [ -z "${REDISCOVERY_SHOW:-}" ] || echo "    round $i: setup+subscribe $(seconds $t0 $t1) s, the rest $(seconds $t1 $(now)) s"
    done
    figure "rediscovery: first heart-rate measurement after the session's start, s (per round):$times"
    if [ $found = $rounds ]; then
        ok "rediscovery: kernel backend: after subscribe ended and its peer was powered off, the scanning session found the advertising sensor and streamed, $found of $rounds rounds"
    else
        bad "rediscovery: kernel backend: session after subscribe and the peer's power-off" "$found of $rounds rounds found the sensor; first failure: round $first_failed"
        # The first failing round's management traffic on hci$C (commands and their answers).
        $RT monitor --from $R/round-$first_failed.btsnoop --json --no-summary --no-gatt-cache 2>&1 \
            | grep "\"adapter\":$C,\"name\":\"MGMT" | cut -c1-240 | show
        $RT decode $R/round-$first_failed.btsnoop --brief 2>&1 | grep -v "ACL" | tail -80 | show
    fi
    server_stop rfound
    kill $RBTVIRT 2>/dev/null
    wait $RBTVIRT 2>/dev/null
    # The suites after this one find their new adapters by what appeared: these must be gone.
    wait_until 5 eval '[ ! -e /sys/class/bluetooth/hci$C ] && [ ! -e /sys/class/bluetooth/hci$H ]' \
        || echo "    rediscovery: hci$C..hci$H still registered"
}
