// pydev-lsp-server: mlir-lsp-server with the pydev dialect (upstream
// mlir-lsp-server-22 takes no plugins). An editor opening pydev IR gets the
// verifier's diagnostic at the op, and hover over a pydev op.
// RUN: pydev-lsp-server -lit-test < %s | FileCheck %s
{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":123,"rootPath":"pydev","capabilities":{},"trace":"off"}}
// -----
{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{
  "uri":"test:///vote.mlir",
  "languageId":"mlir",
  "version":1,
  "text":"func.func @f(%m: !pydev.warp_mask) -> i1 {\n  %0 = \"pydev.vote\"(%m) <{kind = #pydev<vote_kind all>}> : (!pydev.warp_mask) -> i1\n  return %0 : i1\n}"
}}}
// CHECK: "method": "textDocument/publishDiagnostics",
// CHECK: "message": "'pydev.vote' op expected 2 operands, but found 1",
// CHECK: "line": 1
// -----
{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{
  "uri":"test:///shfl.mlir",
  "languageId":"mlir",
  "version":1,
  "text":"func.func @g(%m: !pydev.warp_mask, %v: i32, %d: i32) -> i32 {\n  %0 = pydev.shfl down %m, %v, %d : i32, i32\n  return %0 : i32\n}"
}}}
// CHECK: "diagnostics": [],
// CHECK-NEXT: "uri": "test:///shfl.mlir",
// -----
{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{
  "textDocument":{"uri":"test:///shfl.mlir"},
  "position":{"line":1,"character":8}
}}
// CHECK: "id": 1,
// CHECK: "value": "\"pydev.shfl\"\n\nGeneric Form:{{.*}}<{kind = #pydev<shuffle_kind down>}> : (!pydev.warp_mask, i32, i32) -> i32
// -----
{"jsonrpc":"2.0","id":3,"method":"shutdown"}
// -----
{"jsonrpc":"2.0","method":"exit"}
