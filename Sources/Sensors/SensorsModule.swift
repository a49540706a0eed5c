// Sensor characteristic decoders (Heart Rate, RSC, Thingy:52 temperature, Battery).
