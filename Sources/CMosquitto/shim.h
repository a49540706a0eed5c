// libmosquitto is loaded at run time with dlopen (MQTT/MosquittoLibrary.swift), so that rtstack
// stays one file for users who never publish: this module links nothing. It takes the types and
// constants from Debian's <mosquitto.h> (libmosquitto-dev) and names a pointer type for each
// function rtstack resolves with dlsym, so that each symbol is called with the prototype the
// header declares. Calling a mosquitto_* function directly from Swift fails at link time, which
// is intended.
#include <stdbool.h>
#include <mosquitto.h>

typedef __typeof__(mosquitto_lib_init) *rt_mosquitto_lib_init_t;
typedef __typeof__(mosquitto_lib_version) *rt_mosquitto_lib_version_t;
typedef __typeof__(mosquitto_new) *rt_mosquitto_new_t;
typedef __typeof__(mosquitto_destroy) *rt_mosquitto_destroy_t;
typedef __typeof__(mosquitto_username_pw_set) *rt_mosquitto_username_pw_set_t;
typedef __typeof__(mosquitto_will_set) *rt_mosquitto_will_set_t;
typedef __typeof__(mosquitto_tls_set) *rt_mosquitto_tls_set_t;
typedef __typeof__(mosquitto_int_option) *rt_mosquitto_int_option_t;
typedef __typeof__(mosquitto_max_inflight_messages_set) *rt_mosquitto_max_inflight_messages_set_t;
typedef __typeof__(mosquitto_connect_async) *rt_mosquitto_connect_async_t;
typedef __typeof__(mosquitto_disconnect) *rt_mosquitto_disconnect_t;
typedef __typeof__(mosquitto_publish) *rt_mosquitto_publish_t;
typedef __typeof__(mosquitto_subscribe) *rt_mosquitto_subscribe_t;
typedef __typeof__(mosquitto_socket) *rt_mosquitto_socket_t;
typedef __typeof__(mosquitto_want_write) *rt_mosquitto_want_write_t;
typedef __typeof__(mosquitto_loop_read) *rt_mosquitto_loop_read_t;
typedef __typeof__(mosquitto_loop_write) *rt_mosquitto_loop_write_t;
typedef __typeof__(mosquitto_loop_misc) *rt_mosquitto_loop_misc_t;
typedef __typeof__(mosquitto_threaded_set) *rt_mosquitto_threaded_set_t;
typedef __typeof__(mosquitto_connect_callback_set) *rt_mosquitto_connect_callback_set_t;
typedef __typeof__(mosquitto_disconnect_callback_set) *rt_mosquitto_disconnect_callback_set_t;
typedef __typeof__(mosquitto_publish_callback_set) *rt_mosquitto_publish_callback_set_t;
typedef __typeof__(mosquitto_message_callback_set) *rt_mosquitto_message_callback_set_t;
typedef __typeof__(mosquitto_subscribe_callback_set) *rt_mosquitto_subscribe_callback_set_t;
typedef __typeof__(mosquitto_strerror) *rt_mosquitto_strerror_t;
typedef __typeof__(mosquitto_connack_string) *rt_mosquitto_connack_string_t;
