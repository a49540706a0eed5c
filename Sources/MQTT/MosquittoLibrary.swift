import CMosquitto

/// The libmosquitto functions rtstack calls, resolved from libmosquitto.so.1 with dlsym once per
/// process, the first time MQTT is used. The pointer types come from <mosquitto.h> through the
/// CMosquitto shim, so every call has the header's prototype.
public struct MosquittoLibrary: Sendable {
    let libInit: rt_mosquitto_lib_init_t
    let libVersion: rt_mosquitto_lib_version_t
    let new: rt_mosquitto_new_t
    let destroy: rt_mosquitto_destroy_t
    let usernamePasswordSet: rt_mosquitto_username_pw_set_t
    let willSet: rt_mosquitto_will_set_t
    let tlsSet: rt_mosquitto_tls_set_t
    let intOption: rt_mosquitto_int_option_t
    let maxInflightMessagesSet: rt_mosquitto_max_inflight_messages_set_t
    let connectAsync: rt_mosquitto_connect_async_t
    let disconnect: rt_mosquitto_disconnect_t
    let publish: rt_mosquitto_publish_t
    let subscribe: rt_mosquitto_subscribe_t
    let socket: rt_mosquitto_socket_t
    let wantWrite: rt_mosquitto_want_write_t
    let loopRead: rt_mosquitto_loop_read_t
    let loopWrite: rt_mosquitto_loop_write_t
    let loopMisc: rt_mosquitto_loop_misc_t
    let threadedSet: rt_mosquitto_threaded_set_t
    let connectCallbackSet: rt_mosquitto_connect_callback_set_t
    let disconnectCallbackSet: rt_mosquitto_disconnect_callback_set_t
    let publishCallbackSet: rt_mosquitto_publish_callback_set_t
    let messageCallbackSet: rt_mosquitto_message_callback_set_t
    let subscribeCallbackSet: rt_mosquitto_subscribe_callback_set_t
    let strerror: rt_mosquitto_strerror_t
    let connackString: rt_mosquitto_connack_string_t

    /// The library's version, e.g. (2, 0, 11).
    public let version: (major: Int, minor: Int, revision: Int)

    /// The run-time name of the library; the Debian package libmosquitto1 provides it.
    public static let fileName = "libmosquitto.so.1"

    /// Loaded once; the same result (library or error) for every caller afterwards.
    public static let shared: Result<MosquittoLibrary, MQTTError> = Result { () throws(MQTTError) in try load(fileName) }

    /// Opens and initialises libmosquitto from `fileName` (a path or a name the dynamic linker
    /// looks up). Only tests call this with another name, to check the error.
    public static func load(_ fileName: String) throws(MQTTError) -> MosquittoLibrary {
        let lib: DynamicLibrary
        do {
            lib = try DynamicLibrary.open(fileName)
        } catch {
            throw MQTTError.libraryMissing(detail: error.detail)
        }
        func f<T>(_ name: String, _ type: T.Type) throws(MQTTError) -> T {
            do {
                return try lib.function(name, as: type)
            } catch {
                throw MQTTError.librarySymbolMissing(symbol: name, detail: error.detail)
            }
        }
        let libVersion = try f("mosquitto_lib_version", rt_mosquitto_lib_version_t.self)
        var major: Int32 = 0, minor: Int32 = 0, revision: Int32 = 0
        _ = libVersion(&major, &minor, &revision)
        let m = MosquittoLibrary(
            libInit: try f("mosquitto_lib_init", rt_mosquitto_lib_init_t.self),
            libVersion: libVersion,
            new: try f("mosquitto_new", rt_mosquitto_new_t.self),
            destroy: try f("mosquitto_destroy", rt_mosquitto_destroy_t.self),
            usernamePasswordSet: try f("mosquitto_username_pw_set", rt_mosquitto_username_pw_set_t.self),
            willSet: try f("mosquitto_will_set", rt_mosquitto_will_set_t.self),
            tlsSet: try f("mosquitto_tls_set", rt_mosquitto_tls_set_t.self),
            intOption: try f("mosquitto_int_option", rt_mosquitto_int_option_t.self),
            maxInflightMessagesSet: try f("mosquitto_max_inflight_messages_set", rt_mosquitto_max_inflight_messages_set_t.self),
            connectAsync: try f("mosquitto_connect_async", rt_mosquitto_connect_async_t.self),
            disconnect: try f("mosquitto_disconnect", rt_mosquitto_disconnect_t.self),
            publish: try f("mosquitto_publish", rt_mosquitto_publish_t.self),
            subscribe: try f("mosquitto_subscribe", rt_mosquitto_subscribe_t.self),
            socket: try f("mosquitto_socket", rt_mosquitto_socket_t.self),
            wantWrite: try f("mosquitto_want_write", rt_mosquitto_want_write_t.self),
            loopRead: try f("mosquitto_loop_read", rt_mosquitto_loop_read_t.self),
            loopWrite: try f("mosquitto_loop_write", rt_mosquitto_loop_write_t.self),
            loopMisc: try f("mosquitto_loop_misc", rt_mosquitto_loop_misc_t.self),
            threadedSet: try f("mosquitto_threaded_set", rt_mosquitto_threaded_set_t.self),
            connectCallbackSet: try f("mosquitto_connect_callback_set", rt_mosquitto_connect_callback_set_t.self),
            disconnectCallbackSet: try f("mosquitto_disconnect_callback_set", rt_mosquitto_disconnect_callback_set_t.self),
            publishCallbackSet: try f("mosquitto_publish_callback_set", rt_mosquitto_publish_callback_set_t.self),
            messageCallbackSet: try f("mosquitto_message_callback_set", rt_mosquitto_message_callback_set_t.self),
            subscribeCallbackSet: try f("mosquitto_subscribe_callback_set", rt_mosquitto_subscribe_callback_set_t.self),
            strerror: try f("mosquitto_strerror", rt_mosquitto_strerror_t.self),
            connackString: try f("mosquitto_connack_string", rt_mosquitto_connack_string_t.self),
            version: (Int(major), Int(minor), Int(revision)))
        _ = m.libInit()
        return m
    }

    /// Text of a libmosquitto error code ("The connection was lost.").
    public func errorText(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "libmosquitto error \(code)"
    }

    /// Text of a CONNACK return code ("Connection Refused: not authorised.").
    public func connackText(_ code: Int32) -> String {
        connackString(code).map { String(cString: $0) } ?? "CONNACK code \(code)"
    }
}
