func.func @f(%m: !pydev.warp_mask) {
  %0 = "pydev.vote"(%m) <{kind = #pydev<vote_kind all>}> : (!pydev.warp_mask) -> i1
  return
}
