// btmon-style text and JSON Lines views of HCI packets.
