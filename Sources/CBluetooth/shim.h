#ifndef RTSTACK_CBLUETOOTH_SHIM_H
#define RTSTACK_CBLUETOOTH_SHIM_H
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <bluetooth/l2cap.h>

/* The ioctl request numbers are function-like macros (_IOW/_IOR), which Swift does not
 * import: expose them as functions. */
static inline unsigned long rtstack_ioctl_HCIDEVUP(void) { return HCIDEVUP; }
static inline unsigned long rtstack_ioctl_HCIDEVDOWN(void) { return HCIDEVDOWN; }
static inline unsigned long rtstack_ioctl_HCIGETDEVLIST(void) { return HCIGETDEVLIST; }
static inline unsigned long rtstack_ioctl_HCIGETDEVINFO(void) { return HCIGETDEVINFO; }

/* ERFKILL is Linux-specific; spelled out here so Swift need not rely on Glibc's export. */
static inline int rtstack_errno_ERFKILL(void) { return ERFKILL; }

/* ioctl(2) is variadic in C, which Swift cannot call: one fixed-signature wrapper per use. */
static inline int rtstack_hci_ioctl_index(int fd, unsigned long request, int index) {
    return ioctl(fd, request, (unsigned long)index);
}

static inline int rtstack_hci_get_dev_info(int fd, struct hci_dev_info *info) {
    return ioctl(fd, HCIGETDEVINFO, (void *)info);
}

/* HCIGETDEVLIST takes a struct with a flexible array member; fills `ids`/`flags` with at most
 * `max` entries and returns the count, or -1 with errno set. */
static inline int rtstack_hci_get_dev_list(int fd, uint16_t *ids, uint32_t *flags, int max) {
    if (max <= 0 || max > 64) { errno = EINVAL; return -1; }
    size_t size = sizeof(struct hci_dev_list_req) + (size_t)max * sizeof(struct hci_dev_req);
    struct hci_dev_list_req *req = (struct hci_dev_list_req *)calloc(1, size);
    if (req == NULL) { errno = ENOMEM; return -1; }
    req->dev_num = (uint16_t)max;
    if (ioctl(fd, HCIGETDEVLIST, (void *)req) < 0) {
        int saved = errno;
        free(req);
        errno = saved;
        return -1;
    }
    int count = req->dev_num < max ? req->dev_num : max;
    for (int i = 0; i < count; i++) {
        ids[i] = req->dev_req[i].dev_id;
        flags[i] = req->dev_req[i].dev_opt;
    }
    free(req);
    return count;
}

/* The hci_filter helpers in hci_lib.h are inline functions over bit arrays; these set a
 * filter that passes the given packet types and every event. */
static inline void rtstack_hci_filter_all_events(struct hci_filter *f, uint32_t type_mask) {
    memset(f, 0, sizeof(*f));
    f->type_mask = type_mask;
    f->event_mask[0] = 0xffffffffu;
    f->event_mask[1] = 0xffffffffu;
}
#endif
