// A sample kernel in pydev IR, as the Python frontend will emit it for
//
//   @device.kernel
//   def histogram(bins, data):
//       i = device.tid(1)
//       v = device.shfl_down_sync(device.activemask(), data[i], 1)
//       device.atomic_ref(bins, v).add(1, memory='relaxed', scope='device')
//
// `make demo` compiles it to PTX with `pydev-opt --pydev-pipeline=cuda`.
func.func @histogram(%bins: !pydev.array<i32, 1>, %data: !pydev.array<i32, 1, readonly>) attributes {pydev.kernel} {
  %tx = gpu.thread_id x
  %bx = gpu.block_id x
  %bd = gpu.block_dim x
  %base = arith.muli %bx, %bd : index
  %i = arith.addi %base, %tx : index
  %v = pydev.array_load %data[%i] : !pydev.array<i32, 1, readonly>, index -> i32
  %mask = pydev.activemask
  %one = arith.constant 1 : i32
  %moved = pydev.shfl down %mask, %v, %one : i32, i32
  %bin = pydev.atomic_ref %bins[%moved] : !pydev.array<i32, 1>, i32 -> !pydev.atomic_ref<i32>
  %old = pydev.atomic_rmw add %bin, %one memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  return
}
