# The GATT sub-procedures of issue 12 against BlueZ's btgatt-server (BlueZ 5.66's GATT server in
# src/shared/gatt-server.c), on both backends: reads of several handles and Read Multiple,
# Reliable Writes through a real prepare queue, and discovery over a service and a range.
#
# What this server does, seen here: it claims no EATT (no Server Supported Features), and sent
# an ATT_READ_MULTIPLE_VARIABLE_REQ it reads the values but never answers (its ATT layer has no
# entry for the response opcode), so rtstack does not send that request to it unless told to
# (`--variable`, not run here: it would only show the 30 s timeout). Before queueing a Prepare
# Write BlueZ calls the characteristic's write callback with no value to authorize it, and
# btgatt-server's callbacks take that for a write: the Device Name is emptied (so a second part
# at offset 18 is an Invalid Offset) and the Heart Rate Control Point answers Invalid Attribute
# Value Length. Those refusals are real peer errors mid-queue, and rtstack cancels the queue.
# Sourced by vm-tests.sh, which runs gattprocedures_tests with vm-lib.sh's helpers (RTSTACK_VM_ONLY=
# gattprocedures_tests runs only this). btgatt-server serves one connection: each check starts a
# fresh one (fresh_heart) and reads what it printed afterwards (heart_log).

gattprocedures_tests() {
    for b in user kernel; do
        gp_read_multiple $b
        gp_reliable_write $b
        gp_ranges $b
    done
}

# read 2A38,2A00: no EATT claimed, so one Read per handle: the short Body Sensor Location and the
# 78-byte Device Name (a long read) apart; --fixed: Read Multiple, the values run together.
gp_read_multiple() {
    b=$1
    fresh_heart
    rt 40 rmv-$b read "$A1/public" 2A38,2A00 --json --adapter hci0 $(bargs $b) $STATE
    o=$T/rmv-$b.out
    values=$(tr '{' '\n' <$o | json_field value | tr a-f A-F | tr '\n' ' ')
    if [ $rc = 0 ] && [ "$values" = "01 $NAME_HEX " ]; then
        ok "$(bname $b): read 2A38,2A00 from btgatt-server (no EATT: a read per handle) gives 01 and the 78-byte name apart"
    else
        bad "$(bname $b): read 2A38,2A00" "exit $rc, values '$values'"; show $o $T/rmv-$b.err; heart_log | show
    fi
    fresh_heart
    rt 40 rm-$b read "$A1/public" 2A38,2A00 --fixed --adapter hci0 $(bargs $b) $STATE
    o=$T/rm-$b.out
    # The values run together: 01, then the name, cut where the PDU ends (ATT_MTU − 1).
    joined=$(sed -n 's/^[0-9A-Fx,]*: //p' $o | tr -d ' ' | tr a-f A-F)
    if [ $rc = 0 ] && [ -n "$joined" ] && [ "${joined#01}" != "$joined" ] && [ "${NAME_HEX#${joined#01}}" != "$NAME_HEX" ]; then
        ok "$(bname $b): read 2A38,2A00 --fixed: Read Multiple gives 01 and the name run together ($(( ${#joined} / 2 )) bytes)"
    else
        bad "$(bname $b): read 2A38,2A00 --fixed (Read Multiple)" "exit $rc, '$joined'"; show $o $T/rm-$b.err; heart_log | show
    fi
}

# write --reliable: a Device Name of one part is written from the queue; a longer one is refused
# at its second part (Invalid Offset, see above) and the queue cancelled; with the Heart Rate
# Control Point in the same queue its part is refused (Invalid Attribute Value Length) after the
# name's was queued, the queue is cancelled and neither is written.
gp_reliable_write() {
    b=$1
    short=$(printf 'rtstack reliable' | hexdump -v -e '/1 "%02X"')
    long=$(printf 'rtstack wrote this name with a reliable write' | hexdump -v -e '/1 "%02X"')
    fresh_heart
    rt 40 rw-$b write "$A1/public" 2A00 $short --reliable --adapter hci0 $(bargs $b) $STATE
    heart_log >$T/rw-$b.peer
    if [ $rc = 0 ] && grep -q "GAP Device Name Write called" $T/rw-$b.peer; then
        ok "$(bname $b): write 2A00 --reliable: btgatt-server writes the 16-byte name from its prepare queue"
    else
        bad "$(bname $b): write 2A00 --reliable" "exit $rc"; show $T/rw-$b.out $T/rw-$b.err $T/rw-$b.peer
    fi
    fresh_heart
    rt 40 rwl-$b write "$A1/public" 2A00 $long --reliable --adapter hci0 $(bargs $b) $STATE
    if [ $rc = 1 ] && grep -q "Invalid Offset (0x07) for Prepare Write Request (0x16)" $T/rwl-$b.err; then
        ok "$(bname $b): write 2A00 (45 bytes) --reliable: btgatt-server refuses the second part, rtstack exits 1 naming it"
    else
        bad "$(bname $b): long reliable write refused mid-queue" "exit $rc"; show $T/rwl-$b.out $T/rwl-$b.err; heart_log | show
    fi
    fresh_heart
    rt 40 rw2-$b write "$A1/public" 2A00 $short 2A39 01 --reliable --adapter hci0 $(bargs $b) $STATE
    heart_log >$T/rw2-$b.peer
    if [ $rc = 1 ] && grep -qi "Invalid Attribute Value Length (0x0D) for Prepare Write Request (0x16)" $T/rw2-$b.err \
        && ! grep -q "Energy Expended value reset" $T/rw2-$b.peer; then
        ok "$(bname $b): write 2A00 … 2A39 … --reliable: the control point's part is refused after the name's was queued; the queue is cancelled"
        head -1 $T/rw2-$b.err | sed 's/^/    /'
    else
        bad "$(bname $b): reliable write with a refused second characteristic" "exit $rc"; show $T/rw2-$b.out $T/rw2-$b.err $T/rw2-$b.peer
    fi
}

# gatt --service 180D, then --range over its handles with --only characteristics.
gp_ranges() {
    b=$1
    fresh_heart
    rt 40 svc-$b gatt "$A1/public" --service 180D --no-values --adapter hci0 $(bargs $b) $STATE
    o=$T/svc-$b.out
    range=$(sed -n 's/^service \(0x[0-9A-F]*-0x[0-9A-F]*\) primary Heart Rate (180D)$/\1/p' $o)
    if [ $rc = 0 ] && [ -n "$range" ] && [ "$(grep -c '^service ' $o)" = 1 ] && grep -q "Heart Rate Measurement (2A37)" $o \
        && grep -q "Body Sensor Location (2A38)" $o && grep -q "Heart Rate Control Point (2A39)" $o; then
        ok "$(bname $b): gatt --service 180D finds btgatt-server's Heart Rate service alone ($range)"
    else
        bad "$(bname $b): gatt --service 180D" "exit $rc"; show $o $T/svc-$b.err; heart_log | show
        return
    fi
    fresh_heart
    rt 40 rng-$b gatt "$A1/public" --range $range --only characteristics --no-values --adapter hci0 $(bargs $b) $STATE
    o=$T/rng-$b.out
    if [ $rc = 0 ] && grep -q "^range $range\$" $o && [ "$(grep -c '^  characteristic ' $o)" = 3 ] && ! grep -q descriptor $o; then
        ok "$(bname $b): gatt --range $range --only characteristics lists the same three characteristics"
    else
        bad "$(bname $b): gatt --range" "exit $rc"; show $o $T/rng-$b.err; heart_log | show
    fi
}
