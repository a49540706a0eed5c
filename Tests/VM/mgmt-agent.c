/*
 * mgmt-agent: the user of a peripheral in the rtstack VM test, written for rtstack.
 *
 * A kernel peripheral (btgatt-server on hciN) that requires an authenticated link pairs with
 * the kernel's own SMP; the kernel shows and asks through the management interface, where
 * bluetoothd's agent would answer. This stands in for that agent and its user: it sets the
 * adapter's IO capability and makes it bondable, prints every passkey the kernel shows
 * ("passkey NNNNNN", flushed: the test types it on rtstack), accepts every numeric comparison
 * ("confirm NNNNNN"), and answers a passkey request with -p. Layouts: BlueZ doc/mgmt-api.txt.
 *
 * Usage: mgmt-agent -i INDEX -c IO_CAPABILITY [-p PASSKEY]
 *        (IO_CAPABILITY: 0 DisplayOnly, 1 DisplayYesNo, 2 KeyboardOnly, 3 NoInputNoOutput,
 *         4 KeyboardDisplay)
 * Built static (cc -static) so it runs from the initramfs.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>

#define MGMT_OP_SET_BONDABLE 0x0009
#define MGMT_OP_SET_IO_CAPABILITY 0x0018
#define MGMT_OP_USER_CONFIRM_REPLY 0x001C
#define MGMT_OP_USER_PASSKEY_REPLY 0x001E
#define MGMT_EV_CMD_COMPLETE 0x0001
#define MGMT_EV_CMD_STATUS 0x0002
#define MGMT_EV_USER_CONFIRM_REQUEST 0x000F
#define MGMT_EV_USER_PASSKEY_REQUEST 0x0010
#define MGMT_EV_AUTH_FAILED 0x0011
#define MGMT_EV_PASSKEY_NOTIFY 0x0017

static int fd;
static uint16_t index_;

static void put16(uint8_t *p, uint16_t v) { p[0] = v & 0xFF; p[1] = v >> 8; }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static void command(uint16_t opcode, const uint8_t *params, uint16_t length) {
    uint8_t buf[64];
    put16(buf, opcode);
    put16(buf + 2, index_);
    put16(buf + 4, length);
    memcpy(buf + 6, params, length);
    if (write(fd, buf, 6u + length) < 0) perror("mgmt-agent: write");
}

/* Address (6) and Address_Type (1) as the event gave them, for the reply. */
static void reply(uint16_t opcode, const uint8_t *address, const uint8_t *extra, uint16_t extra_length) {
    uint8_t p[16];
    memcpy(p, address, 7);
    memcpy(p + 7, extra, extra_length);
    command(opcode, p, (uint16_t)(7 + extra_length));
}

int main(int argc, char **argv) {
    int capability = 3, opt;
    long passkey = -1;
    while ((opt = getopt(argc, argv, "i:c:p:")) != -1) {
        switch (opt) {
        case 'i': index_ = (uint16_t)atoi(optarg); break;
        case 'c': capability = atoi(optarg); break;
        case 'p': passkey = atol(optarg); break;
        default:
            fprintf(stderr, "usage: mgmt-agent -i INDEX -c IO_CAPABILITY [-p PASSKEY]\n");
            return 2;
        }
    }
    fd = socket(PF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI);
    if (fd < 0) { perror("mgmt-agent: socket"); return 1; }
    struct sockaddr_hci a = { .hci_family = AF_BLUETOOTH, .hci_dev = HCI_DEV_NONE, .hci_channel = HCI_CHANNEL_CONTROL };
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0) { perror("mgmt-agent: bind"); return 1; }
    uint8_t one = 1, cap = (uint8_t)capability;
    command(MGMT_OP_SET_IO_CAPABILITY, &cap, 1);
    command(MGMT_OP_SET_BONDABLE, &one, 1);
    printf("agent on hci%u, io capability %d\n", index_, capability);
    fflush(stdout);
    for (;;) {
        uint8_t buf[512];
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            perror("mgmt-agent: read");
            return 1;
        }
        if (n < 6 || get16(buf + 2) != index_) continue;
        uint16_t code = get16(buf);
        const uint8_t *p = buf + 6;
        size_t length = (size_t)n - 6;
        switch (code) {
        case MGMT_EV_CMD_COMPLETE:
        case MGMT_EV_CMD_STATUS:
            if (length >= 3 && p[2] != 0) printf("command 0x%04x failed: status 0x%02x\n", get16(p), p[2]);
            break;
        case MGMT_EV_PASSKEY_NOTIFY:
            if (length >= 11) printf("passkey %06u\n", get32(p + 7));
            break;
        case MGMT_EV_USER_CONFIRM_REQUEST:
            if (length >= 12) {
                printf("confirm %06u%s\n", get32(p + 8), p[7] ? " (just works)" : "");
                reply(MGMT_OP_USER_CONFIRM_REPLY, p, NULL, 0);
            }
            break;
        case MGMT_EV_USER_PASSKEY_REQUEST:
            if (length >= 7 && passkey >= 0) {
                uint8_t k[4] = { (uint8_t)passkey, (uint8_t)(passkey >> 8), (uint8_t)(passkey >> 16), (uint8_t)(passkey >> 24) };
                printf("typing passkey %06ld\n", passkey);
                reply(MGMT_OP_USER_PASSKEY_REPLY, p, k, 4);
            }
            break;
        case MGMT_EV_AUTH_FAILED:
            if (length >= 8) printf("authentication failed: status 0x%02x\n", p[7]);
            break;
        default:
            break;
        }
        fflush(stdout);
    }
}
