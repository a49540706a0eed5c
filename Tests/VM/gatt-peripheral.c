/*
 * gatt-peripheral: a small GATT server for the rtstack VM test, written for rtstack.
 *
 * The VM test's peers are BlueZ's own where they can be (btgatt-server, built from bluez-source by
 * scripts/vm-test). This one stays for what btgatt-server cannot do: a Running Speed and Cadence
 * sensor (btgatt-server serves Heart Rate only), several links at once on one adapter (it
 * accepts one connection and exits), and the -c link that works around btvirt's handle
 * numbering (see vm-tests.sh).
 *
 * It serves one sensor on a kernel L2CAP ATT socket (SOCK_SEQPACKET, BTPROTO_L2CAP, fixed
 * channel 4, LE public address of the adapter named with -i): the GAP service with a Device
 * Name, and either Heart Rate (0x180D, measurement 0x2A37) or Running Speed and Cadence
 * (0x1814, measurement 0x2A53), whose measurement is notified every 100 ms to each link that
 * enabled it in its CCCD. Advertising is left to btmgmt; the kernel answers SMP and LE
 * signaling. Requests: Exchange MTU, Find Information, Find By Type Value, Read By Type,
 * Read, Read Blob, Read By Group Type, Write (CCCD only); others get Request Not Supported.
 * ATT PDU layouts: Core Specification v5.4, Vol 3, Part F, §3.4.
 *
 * Usage: gatt-peripheral -i INDEX -s heart|speed -n NAME [-v]   (-v logs every request)
 *        gatt-peripheral -i INDEX -c AA:BB:CC:DD:EE:FF          (hold an LE link to that peer)
 *
 * The -c form only opens an ATT bearer from adapter INDEX to a peer and keeps it: the VM test
 * uses it to give a peripheral one link before rtstack connects (see vm-tests.sh for why).
 * Built static (cc -static) so it runs from the initramfs.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/l2cap.h>

#define ATT_CID 4
#define MAX_LINKS 4
#define OUR_MTU 185

enum { H_GAP = 1, H_NAME_DECL, H_NAME, H_SVC, H_MEAS_DECL, H_MEAS, H_CCCD, H_LAST = H_CCCD };

struct link { int fd; uint16_t mtu; uint16_t cccd; };

static struct link links[MAX_LINKS];
static char device_name[32] = "rtstack-vm";
static uint16_t service_uuid = 0x180D, measurement_uuid = 0x2A37;
static unsigned tick;
static unsigned long notifications_sent;
static int verbose;

static void put16(uint8_t *p, uint16_t v) { p[0] = v & 0xFF; p[1] = v >> 8; }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* The attribute type of a handle, 0 for none. */
static uint16_t type_of(uint16_t h) {
    switch (h) {
    case H_GAP: case H_SVC: return 0x2800;
    case H_NAME_DECL: case H_MEAS_DECL: return 0x2803;
    case H_NAME: return 0x2A00;
    case H_MEAS: return measurement_uuid;
    case H_CCCD: return 0x2902;
    default: return 0;
    }
}

/* The attribute value of a handle; returns its length. */
static int value_of(struct link *l, uint16_t h, uint8_t *out) {
    switch (h) {
    case H_GAP: put16(out, 0x1800); return 2;
    case H_SVC: put16(out, service_uuid); return 2;
    case H_NAME_DECL: out[0] = 0x02; put16(out + 1, H_NAME); put16(out + 3, 0x2A00); return 5;
    case H_MEAS_DECL: out[0] = 0x10; put16(out + 1, H_MEAS); put16(out + 3, measurement_uuid); return 5;
    case H_NAME: { int n = (int)strlen(device_name); memcpy(out, device_name, (size_t)n); return n; }
    case H_MEAS: return 0;
    case H_CCCD: put16(out, l->cccd); return 2;
    default: return -1;
    }
}

static uint16_t group_end(uint16_t h) { return h == H_GAP ? H_NAME : H_LAST; }

static void send_pdu(struct link *l, const uint8_t *p, size_t n) {
    if (send(l->fd, p, n, MSG_NOSIGNAL) < 0 && errno != EAGAIN)
        fprintf(stderr, "gatt-peripheral: send: %s\n", strerror(errno));
}

static void send_error(struct link *l, uint8_t req, uint16_t h, uint8_t code) {
    uint8_t p[5] = { 0x01, req, 0, 0, code };
    put16(p + 2, h);
    send_pdu(l, p, sizeof p);
}

static void handle_pdu(struct link *l, const uint8_t *p, ssize_t n) {
    uint8_t out[OUR_MTU + 8];
    uint8_t value[64];
    if (n < 1) return;
    uint8_t op = p[0];
    if (verbose) fprintf(stderr, "gatt-peripheral: link %d: ATT opcode 0x%02x, %zd bytes\n", (int)(l - links), op, n);
    uint16_t limit = l->mtu;
    switch (op) {
    case 0x02: /* Exchange MTU Request */
        if (n < 3) { send_error(l, op, 0, 0x04); return; }
        { uint16_t client = get16(p + 1); l->mtu = client < OUR_MTU ? (client < 23 ? 23 : client) : OUR_MTU; }
        out[0] = 0x03; put16(out + 1, OUR_MTU); send_pdu(l, out, 3);
        return;
    case 0x04: { /* Find Information Request */
        if (n < 5) { send_error(l, op, 0, 0x04); return; }
        uint16_t start = get16(p + 1), end = get16(p + 3);
        if (start == 0 || start > end) { send_error(l, op, start, 0x01); return; }
        size_t o = 2; out[0] = 0x05; out[1] = 0x01;
        for (uint32_t h = start; h <= end && h <= H_LAST && o + 4 <= limit; h++) {
            put16(out + o, (uint16_t)h); put16(out + o + 2, type_of((uint16_t)h)); o += 4;
        }
        if (o == 2) send_error(l, op, start, 0x0A); else send_pdu(l, out, o);
        return;
    }
    case 0x06: { /* Find By Type Value Request: primary services by UUID */
        if (n < 7) { send_error(l, op, 0, 0x04); return; }
        uint16_t start = get16(p + 1), end = get16(p + 3), type = get16(p + 5);
        if (start == 0 || start > end) { send_error(l, op, start, 0x01); return; }
        size_t o = 1; out[0] = 0x07;
        if (type == 0x2800 && n == 9) {
            uint16_t want = get16(p + 7);
            for (uint32_t h = start; h <= end && h <= H_LAST; h++) {
                if (type_of((uint16_t)h) != 0x2800) continue;
                value_of(l, (uint16_t)h, value);
                if (get16(value) != want || o + 4 > limit) continue;
                put16(out + o, (uint16_t)h); put16(out + o + 2, group_end((uint16_t)h)); o += 4;
            }
        }
        if (o == 1) send_error(l, op, start, 0x0A); else send_pdu(l, out, o);
        return;
    }
    case 0x08:   /* Read By Type Request */
    case 0x10: { /* Read By Group Type Request */
        if (n != 7 && n != 21) { send_error(l, op, 0, 0x04); return; }
        uint16_t start = get16(p + 1), end = get16(p + 3);
        if (start == 0 || start > end) { send_error(l, op, start, 0x01); return; }
        if (n == 21) { send_error(l, op, start, 0x0A); return; } /* no 128-bit types here */
        uint16_t type = get16(p + 5);
        if (op == 0x10 && type != 0x2800) { send_error(l, op, start, 0x10); return; }
        size_t o = 2; int each = -1;
        out[0] = op + 1;
        for (uint32_t h = start; h <= end && h <= H_LAST; h++) {
            if (type_of((uint16_t)h) != type) continue;
            int len = value_of(l, (uint16_t)h, value);
            if (len < 0) continue;
            int entry = (op == 0x10 ? 4 : 2) + len;
            if (each < 0) each = entry; else if (entry != each) break;
            if (o + (size_t)entry > limit) break;
            put16(out + o, (uint16_t)h); o += 2;
            if (op == 0x10) { put16(out + o, group_end((uint16_t)h)); o += 2; }
            memcpy(out + o, value, (size_t)len); o += (size_t)len;
        }
        if (o == 2) { send_error(l, op, start, 0x0A); return; }
        out[1] = (uint8_t)each;
        send_pdu(l, out, o);
        return;
    }
    case 0x0A:   /* Read Request */
    case 0x0C: { /* Read Blob Request */
        if (n < 3) { send_error(l, op, 0, 0x04); return; }
        uint16_t h = get16(p + 1), offset = op == 0x0C && n >= 5 ? get16(p + 3) : 0;
        int len = value_of(l, h, value);
        if (len < 0) { send_error(l, op, h, 0x01); return; }
        if (h == H_MEAS) { send_error(l, op, h, 0x02); return; } /* notify only */
        if (offset > len) { send_error(l, op, h, 0x07); return; }
        size_t take = (size_t)(len - offset);
        if (take > (size_t)limit - 1) take = (size_t)limit - 1;
        out[0] = op + 1; memcpy(out + 1, value + offset, take);
        send_pdu(l, out, 1 + take);
        return;
    }
    case 0x12: /* Write Request */
        if (n < 3) { send_error(l, op, 0, 0x04); return; }
        if (get16(p + 1) != H_CCCD) { send_error(l, op, get16(p + 1), 0x03); return; }
        if (n != 5) { send_error(l, op, H_CCCD, 0x0D); return; }
        l->cccd = get16(p + 3);
        fprintf(stderr, "gatt-peripheral: CCCD <- 0x%04x\n", l->cccd);
        out[0] = 0x13; send_pdu(l, out, 1);
        return;
    case 0x1E: /* Handle Value Confirmation */
        return;
    default:
        if (op & 0x40) return; /* commands get no response */
        send_error(l, op, 0, 0x06);
    }
}

static void notify_all(void) {
    uint8_t p[8];
    size_t n;
    tick++;
    p[0] = 0x1B; put16(p + 1, H_MEAS);
    if (measurement_uuid == 0x2A37) {
        p[3] = 0x00; p[4] = (uint8_t)(60 + tick % 40); n = 5;  /* flags, UINT8 bpm */
    } else {
        p[3] = 0x00; put16(p + 4, (uint16_t)(768 + tick % 128)); p[6] = (uint8_t)(160 + tick % 20); n = 7; /* speed 1/256 m/s, cadence */
    }
    for (int i = 0; i < MAX_LINKS; i++) {
        if (links[i].fd >= 0 && (links[i].cccd & 1)) { send_pdu(&links[i], p, n); notifications_sent++; }
    }
}

static int adapter_address(int index, bdaddr_t *out) {
    struct hci_dev_info di;
    int s = socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI);
    if (s < 0) return -1;
    memset(&di, 0, sizeof di);
    di.dev_id = (uint16_t)index;
    int rc = ioctl(s, HCIGETDEVINFO, (void *)&di);
    close(s);
    if (rc < 0) return -1;
    *out = di.bdaddr;
    return 0;
}

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Connects adapter `index` to `peer` (LE public) on the ATT channel and holds the link. */
static int hold_link(int index, const char *peer) {
    struct sockaddr_l2 local, remote;
    unsigned b[6];
    memset(&local, 0, sizeof local);
    memset(&remote, 0, sizeof remote);
    if (sscanf(peer, "%x:%x:%x:%x:%x:%x", &b[5], &b[4], &b[3], &b[2], &b[1], &b[0]) != 6) {
        fprintf(stderr, "gatt-peripheral: bad address %s\n", peer);
        return 2;
    }
    for (int i = 0; i < 6; i++) remote.l2_bdaddr.b[i] = (uint8_t)b[i];
    local.l2_family = remote.l2_family = AF_BLUETOOTH;
    local.l2_cid = remote.l2_cid = htobs(ATT_CID);
    local.l2_bdaddr_type = remote.l2_bdaddr_type = BDADDR_LE_PUBLIC;
    if (adapter_address(index, &local.l2_bdaddr) < 0) { perror("gatt-peripheral: HCIGETDEVINFO"); return 1; }
    int fd = socket(AF_BLUETOOTH, SOCK_SEQPACKET | SOCK_CLOEXEC, BTPROTO_L2CAP);
    if (fd < 0) { perror("gatt-peripheral: socket"); return 1; }
    if (bind(fd, (struct sockaddr *)&local, sizeof local) < 0) { perror("gatt-peripheral: bind"); return 1; }
    if (connect(fd, (struct sockaddr *)&remote, sizeof remote) < 0) { perror("gatt-peripheral: connect"); return 1; }
    /* What a kernel-bearer central would read back: the L2CAP MTUs and the security level. */
    uint16_t snd = 0, rcv = 0;
    struct bt_security sec;
    socklen_t len = sizeof snd;
    memset(&sec, 0, sizeof sec);
    getsockopt(fd, SOL_BLUETOOTH, BT_SNDMTU, &snd, &len);
    len = sizeof rcv;
    getsockopt(fd, SOL_BLUETOOTH, BT_RCVMTU, &rcv, &len);
    len = sizeof sec;
    getsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &sec, &len);
    fprintf(stderr, "gatt-peripheral: hci%d holds a link to %s (BT_SNDMTU %u, BT_RCVMTU %u, BT_SECURITY level %u)\n",
            index, peer, snd, rcv, sec.level);
    uint8_t buf[512];
    while (recv(fd, buf, sizeof buf, 0) > 0) {}
    fprintf(stderr, "gatt-peripheral: held link to %s ended\n", peer);
    return 0;
}

int main(int argc, char **argv) {
    int index = 1, c;
    const char *hold = NULL;
    while ((c = getopt(argc, argv, "i:s:n:vc:")) != -1) {
        switch (c) {
        case 'i': index = atoi(optarg); break;
        case 's':
            if (strcmp(optarg, "speed") == 0) { service_uuid = 0x1814; measurement_uuid = 0x2A53; }
            break;
        case 'v': verbose = 1; break;
        case 'c': hold = optarg; break;
        case 'n': snprintf(device_name, sizeof device_name, "%s", optarg); break;
        default: fprintf(stderr, "usage: gatt-peripheral -i INDEX -s heart|speed -n NAME\n"); return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    if (hold) return hold_link(index, hold);
    for (int i = 0; i < MAX_LINKS; i++) links[i].fd = -1;

    struct sockaddr_l2 addr;
    memset(&addr, 0, sizeof addr);
    addr.l2_family = AF_BLUETOOTH;
    addr.l2_cid = htobs(ATT_CID);
    addr.l2_bdaddr_type = BDADDR_LE_PUBLIC;
    if (adapter_address(index, &addr.l2_bdaddr) < 0) { perror("gatt-peripheral: HCIGETDEVINFO"); return 1; }
    int listener = socket(AF_BLUETOOTH, SOCK_SEQPACKET | SOCK_CLOEXEC, BTPROTO_L2CAP);
    if (listener < 0) { perror("gatt-peripheral: socket"); return 1; }
    if (bind(listener, (struct sockaddr *)&addr, sizeof addr) < 0) { perror("gatt-peripheral: bind"); return 1; }
    if (listen(listener, 4) < 0) { perror("gatt-peripheral: listen"); return 1; }
    fprintf(stderr, "gatt-peripheral: hci%d %02X:%02X:%02X:%02X:%02X:%02X serving 0x%04X\n", index,
            addr.l2_bdaddr.b[5], addr.l2_bdaddr.b[4], addr.l2_bdaddr.b[3], addr.l2_bdaddr.b[2],
            addr.l2_bdaddr.b[1], addr.l2_bdaddr.b[0], service_uuid);

    uint64_t next = now_ms() + 100;
    for (;;) {
        struct pollfd fds[MAX_LINKS + 1];
        fds[0].fd = listener; fds[0].events = POLLIN;
        for (int i = 0; i < MAX_LINKS; i++) { fds[i + 1].fd = links[i].fd; fds[i + 1].events = POLLIN; }
        uint64_t t = now_ms();
        int wait = next > t ? (int)(next - t) : 0;
        int ready = poll(fds, MAX_LINKS + 1, wait);
        if (ready < 0 && errno != EINTR) { perror("gatt-peripheral: poll"); return 1; }
        if (ready > 0 && (fds[0].revents & POLLIN)) {
            int fd = accept(listener, NULL, NULL);
            int slot = -1;
            for (int i = 0; i < MAX_LINKS && fd >= 0; i++) if (links[i].fd < 0) { slot = i; break; }
            if (slot < 0) { if (fd >= 0) close(fd); }
            else { links[slot].fd = fd; links[slot].mtu = 23; links[slot].cccd = 0;
                   fprintf(stderr, "gatt-peripheral: link up\n"); }
        }
        for (int i = 0; ready > 0 && i < MAX_LINKS; i++) {
            if (links[i].fd < 0 || !(fds[i + 1].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            uint8_t buf[512];
            ssize_t n = recv(links[i].fd, buf, sizeof buf, 0);
            if (n <= 0) {
                fprintf(stderr, "gatt-peripheral: link down (%lu notifications sent)\n", notifications_sent);
                close(links[i].fd); links[i].fd = -1; continue;
            }
            handle_pdu(&links[i], buf, n);
        }
        if (now_ms() >= next) { notify_all(); next += 100; }
    }
}
