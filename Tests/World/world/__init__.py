"""rtstack's BLE test world: Bumble virtual controllers and simulated sensors on one link."""
