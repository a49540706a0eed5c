import CMosquitto
import Glibc

/// What to do when the broker cannot be reached or refuses rtstack: the library names the
/// cause (a CONNACK code, an errno); the settings that fix it are the gateway's, named here
/// by their configuration keys.
enum MQTTRemedy {
    /// A CONNACK refusal (MQTT 3.1.1, §3.2.2.3).
    static func connack(_ code: Int32) -> String {
        switch code {
        case 1:
            return "the broker does not speak MQTT 3.1.1: use a broker that does (mosquitto 1.6 or later)"
        case 2:
            return "the broker rejected the client id: give another with mqtt.client_id (--mqtt-client-id); each gateway needs its own"
        case 3:
            return "the broker is not taking clients now: check its log; rtstack tries again"
        case 4:
            return "check mqtt.username and the password (--mqtt-username, --mqtt-password-file) against the broker's password file"
        case 5:
            // Mosquitto 2 answers a wrong password with this code too.
            return "the broker did not let this user in: check mqtt.username and the password (--mqtt-username, "
                + "--mqtt-password-file) against its password file, and that its access control (mosquitto: "
                + "allow_anonymous, acl_file) admits the user"
        default:
            return "the broker's log names the reason; rtstack tries again"
        }
    }

    /// A connection that could not be made or was lost (libmosquitto's `rc`; for
    /// MOSQ_ERR_ERRNO the system's `errno`).
    static func connection(_ rc: Int32, errno code: Int32) -> String {
        switch rc {
        case MOSQ_ERR_ERRNO.rawValue:
            return socket(errno: code)
        case MOSQ_ERR_EAI.rawValue:
            return unresolvedHost
        case MOSQ_ERR_TLS.rawValue, MOSQ_ERR_TLS_HANDSHAKE.rawValue:
            return "the TLS handshake failed: check mqtt.ca_file (--mqtt-ca) against the broker's certificate, and the client "
                + "certificate and key (--mqtt-cert, --mqtt-key) if the broker asks for them"
        case MOSQ_ERR_AUTH.rawValue:
            return connack(4)
        case MOSQ_ERR_CONN_REFUSED.rawValue:
            return connack(5)
        default:
            return "check the --mqtt address and that the broker runs; rtstack tries again"
        }
    }

    /// A socket call that failed with `code`.
    static func socket(errno code: Int32) -> String {
        switch code {
        case ECONNREFUSED:
            return "nothing listens there: start the broker, or check the host and port of --mqtt (1883 for mqtt://, 8883 for mqtts://)"
        case EHOSTUNREACH, ENETUNREACH, ETIMEDOUT:
            return "the broker's host cannot be reached: check the network and any firewall between them; rtstack tries again"
        default:
            return "check the --mqtt address and that the broker runs; rtstack tries again"
        }
    }

    static let unresolvedHost = "the broker's host name does not resolve: check it in --mqtt, or give an IP address"
}
