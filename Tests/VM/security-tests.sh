#!/bin/sh
# Pairing against kernel peers that require security, from both backends (sourced by
# vm-tests.sh, which runs security_tests once with vm-lib.sh's helpers and its world). The peer
# is BlueZ's btgatt-server on hci1 with its listening socket's BT_SECURITY (-s medium|high): the
# peripheral's kernel sends a Security Request and accepts the link only once it is secured
# with its own SMP. Tests/VM/mgmt-agent is that peripheral's user: its IO capability, bonding,
# the passkeys its kernel shows ("passkey NNNNNN"), numeric comparisons accepted.
#   user channel: rtstack's Security Manager (HCI backend) pairs;
#   kernel backend: hci0's kernel pairs, rtstack is its agent on the management channel.
security_tests() {
    S=$T/security
    mkdir -p $S
    btmgmt --index 1 sc on >>$T/btmgmt.log 2>&1
    for b in user kernel; do
        sec_just_works $b
        sec_passkey $b
        sec_numeric_comparison $b
    done
    [ -n "${SEC_AGENT:-}" ] && kill $SEC_AGENT 2>/dev/null
    SEC_AGENT=
    btmgmt --index 1 bondable off >>$T/btmgmt.log 2>&1
    btmgmt --index 1 sc off >>$T/btmgmt.log 2>&1
    btmgmt --index 1 io-cap 3 >>$T/btmgmt.log 2>&1
}

# sec_peer LEVEL CAPABILITY: a fresh btgatt-server -s LEVEL on hci1, its agent with that IO
# capability (0 DisplayOnly, 1 DisplayYesNo, 3 NoInputNoOutput).
sec_peer() {
    # Only a started agent: `wait` without an argument would wait for every background job
    # (the other scenarios' servers, which never end).
    if [ -n "${SEC_AGENT:-}" ]; then
        kill $SEC_AGENT 2>/dev/null
        wait $SEC_AGENT 2>/dev/null
    fi
    mgmt-agent -i 1 -c $2 >$S/agent.log 2>&1 &
    SEC_AGENT=$!
    wait_until 5 grep -q '^agent on' $S/agent.log
    server_stop heart
    wait_until 10 no_links 1 || echo "    hci1 still has a link"
    heart_server heart 1 once "-s $1"
}

# sec_passkey_shown: the passkey the peripheral's kernel shows, once it does (20 s at most).
sec_passkey_shown() {
    wait_until 20 grep -q '^passkey ' $S/agent.log && grep '^passkey ' $S/agent.log | tail -1 | cut -d' ' -f2
}

# The peer needs an encrypted link (btgatt-server -s medium, NoInputNoOutput): rtstack pairs by
# Just Works, keeps the bond, and on the next connection encrypts with it without pairing again.
# (This kernel's peripheral sends no Security Request of its own: rtstack pairs first.)
sec_just_works() {
    b=$1
    D="--state-dir $S/$b-jw"
    sec_peer medium 3
    rt 40 sec-jw-$b pair "$A1/public" --adapter hci0 $(bargs $b) $D
    if [ $b = user ]; then expect="by Just Works"; else expect="paired by the kernel: security"; fi
    if [ $rc = 0 ] && grep -q "$expect" $T/sec-jw-$b.out; then
        ok "security, $(bname $b): btgatt-server -s medium, Just Works: paired"
        sed 's/^/    /' $T/sec-jw-$b.out | head -2
    else
        bad "security, $(bname $b): btgatt-server -s medium, Just Works" "exit $rc"; show $T/sec-jw-$b.out $T/sec-jw-$b.err $S/agent.log; heart_log | show
        return
    fi
    [ $b = user ] || { sec_kernel_bond_kept; return 0; }
    rt 10 sec-bonds bonds $D
    if grep -q "^$A1/public .*Just Works" $T/sec-bonds.out; then
        ok "security, user channel: the bond with hci1 is kept"
        sed 's/^/    /' $T/sec-bonds.out
    else
        bad "security, user channel: bond kept" "-"; show $T/sec-bonds.out $T/sec-bonds.err
    fi
    sec_peer medium 3
    rt 40 sec-jw2-$b gatt "$A1/public" --adapter hci0 $D --trace
    if [ $rc = 0 ] && grep -qi "180D" $T/sec-jw2-$b.out && grep -q "LE Enable Encryption" $T/sec-jw2-$b.err \
        && ! grep -q "Pairing Request" $T/sec-jw2-$b.err; then
        ok "security, user channel: reconnected, encrypted with the bond (LE Enable Encryption, no Pairing Request), gatt reads the database"
    else
        bad "security, user channel: reconnect with the bond" "exit $rc"; grep -E "Encryption|Pairing|Disconn" $T/sec-jw2-$b.err | show
    fi
}

# Issue 17 §1, kernel backend: the peer's kernel distributes its keys at once after Encryption
# Change, and hci0's kernel (which pairs on this backend) must take them and keep the bond: the
# next connection, a `read` needing encryption, is encrypted with the kept key (LE Start
# Encryption on hci0) without pairing again (no Pairing Request on hci0), and reads 2A38.
sec_kernel_bond_kept() {
    sec_peer medium 3
    btmon -w $S/kbond.btsnoop >/dev/null 2>&1 &
    kmon=$!
    sleep 0.3
    rt 40 sec-jw2-kernel read "$A1/public" 2A38 --adapter hci0 --backend kernel --security medium $D
    kill $kmon 2>/dev/null
    wait $kmon 2>/dev/null
    $RT decode $S/kbond.btsnoop --brief 2>/dev/null | grep ' hci0 ' >$S/kbond.txt
    if [ $rc = 0 ] && head -1 $T/sec-jw2-kernel.out | grep -q ': 01  = Chest$' \
        && grep -q "LE Start Encryption\|LE Enable Encryption" $S/kbond.txt && ! grep -q "Pairing Request" $S/kbond.txt; then
        ok "security, kernel backend: the bond the kernel kept encrypts the next link (no Pairing Request), read 2A38 gives 01 = Chest"
    else
        bad "security, kernel backend: bond kept" "exit $rc"; show $T/sec-jw2-kernel.out $T/sec-jw2-kernel.err
        grep -E "Encryption|Pairing|Security|Disconn|Key" $S/kbond.txt | head -20 | show
    fi
}

# The peer needs an authenticated link and shows a passkey (DisplayOnly): rtstack reads it from
# stdin (--passkey -), as a user types it.
sec_passkey() {
    b=$1
    sec_peer high 0
    ( p=$(sec_passkey_shown); echo "$p" ) | $RT pair "$A1/public" --adapter hci0 $(bargs $b) --state-dir $S/$b-pk \
        --security high --passkey - >$T/sec-pk-$b.out 2>$T/sec-pk-$b.err &
    finish $! 60
    # The kernel names what it reached: high, or fips for LE Secure Connections with a 16-octet key.
    if [ $b = user ]; then expect="by Passkey Entry (peer displays)"; else expect="paired by the kernel: security \(high\|fips\)"; fi
    if [ $rc = 0 ] && grep -q "$expect" $T/sec-pk-$b.out && grep -q '^passkey ' $S/agent.log; then
        ok "security, $(bname $b): btgatt-server -s high, passkey shown by the peer and typed into rtstack: paired"
        sed 's/^/    /' $T/sec-pk-$b.out | head -2
    else
        bad "security, $(bname $b): passkey entry" "exit $rc"; show $T/sec-pk-$b.out $T/sec-pk-$b.err $S/agent.log
    fi
}

# LE Secure Connections with both sides DisplayYesNo: the numbers are compared, accepted by the
# peer's agent and by --confirm-numbers.
sec_numeric_comparison() {
    b=$1
    sec_peer high 1
    rt 60 sec-nc-$b pair "$A1/public" --adapter hci0 $(bargs $b) --state-dir $S/$b-nc --security high \
        --io-capability display-yes-no --confirm-numbers
    if [ $b = user ]; then expect="by Numeric Comparison (LE Secure Connections)"; else expect="paired by the kernel: security"; fi
    if [ $rc = 0 ] && grep -q "$expect" $T/sec-nc-$b.out && grep -q '^confirm ' $S/agent.log; then
        ok "security, $(bname $b): numeric comparison with btgatt-server -s high: paired"
        sed 's/^/    /' $T/sec-nc-$b.out | head -2
    else
        bad "security, $(bname $b): numeric comparison" "exit $rc"; show $T/sec-nc-$b.out $T/sec-nc-$b.err $S/agent.log
    fi
}
