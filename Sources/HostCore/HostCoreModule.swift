// The sans-I/O host core: fed (packet, time) and requests, answers packets, events, deadlines.
