// `pydev-opt --print-plugin-path` prints the plugin library that `make build`
// puts next to it, for upstream mlir-opt's --load-dialect-plugin and
// --load-pass-plugin (test/tools/mlir-opt-plugin.mlir).
// RUN: pydev-opt --print-plugin-path | FileCheck %s -DPLUGIN=%pydev_plugin
// CHECK: {{^}}[[PLUGIN]]{{$}}
