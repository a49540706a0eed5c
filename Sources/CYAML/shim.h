// libyaml (Debian libyaml-dev): the gateway configuration file and command payloads are parsed
// with it (Sources/Gateway/YAML).
#include <yaml.h>
