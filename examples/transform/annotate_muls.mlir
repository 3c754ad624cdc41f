// A transform-dialect script (docs/research.md): finds every pydev.mul of
// the payload and marks it `example.seen`, with core transform ops only
// (collect_matching, match.operation_name, annotate), so that pydev-opt and
// the JIT both run it:
//   pydev-opt k.mlir --transform-preload-library=transform-library-paths=THIS --transform-interpreter
//   passes={"after-frontend": "transform-preload-library{transform-library-paths=THIS},transform-interpreter"}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_mul(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["pydev.mul"] : !transform.any_op
    transform.yield %op : !transform.any_op
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %muls = transform.collect_matching @match_mul in %root : (!transform.any_op) -> !transform.any_op
    transform.annotate %muls "example.seen" : !transform.any_op
    transform.yield
  }
}
