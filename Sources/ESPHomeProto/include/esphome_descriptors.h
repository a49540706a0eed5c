#ifndef RTSTACK_ESPHOME_DESCRIPTORS_H
#define RTSTACK_ESPHOME_DESCRIPTORS_H
/* Swift cannot take the address of a C constant, and protobuf-c needs the descriptor of each
 * message a client sends to decode it: one accessor per such message. */
#include "api.pb-c.h"

static inline const ProtobufCMessageDescriptor *esphome_hello_request_descriptor(void) { return &hello_request__descriptor; }
static inline const ProtobufCMessageDescriptor *esphome_authentication_request_descriptor(void) { return &authentication_request__descriptor; }
static inline const ProtobufCMessageDescriptor *esphome_disconnect_request_descriptor(void) { return &disconnect_request__descriptor; }
static inline const ProtobufCMessageDescriptor *esphome_subscribe_bluetooth_leadvertisements_request_descriptor(void) { return &subscribe_bluetooth_leadvertisements_request__descriptor; }
static inline const ProtobufCMessageDescriptor *esphome_bluetooth_device_request_descriptor(void) { return &bluetooth_device_request__descriptor; }
static inline const ProtobufCMessageDescriptor *esphome_bluetooth_gatthandle_request_descriptor(void) { return &bluetooth_gatthandle_request__descriptor; }
static inline const ProtobufCMessageDescriptor *esphome_bluetooth_gattwrite_request_descriptor(void) { return &bluetooth_gattwrite_request__descriptor; }
static inline const ProtobufCMessageDescriptor *esphome_bluetooth_gattdata_descriptor(void) { return &bluetooth_gattdata__descriptor; }
static inline const ProtobufCMessageDescriptor *esphome_bluetooth_gattnotify_request_descriptor(void) { return &bluetooth_gattnotify_request__descriptor; }
static inline const ProtobufCMessageDescriptor *esphome_bluetooth_scanner_set_mode_request_descriptor(void) { return &bluetooth_scanner_set_mode_request__descriptor; }
static inline const ProtobufCMessageDescriptor *esphome_bluetooth_set_connection_params_request_descriptor(void) { return &bluetooth_set_connection_params_request__descriptor; }

#endif
