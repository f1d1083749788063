#include "gpu/ptx.h"

namespace tfgpu::gpu {

namespace {

// Hand-written PTX (ISA reference: NVIDIA "Parallel Thread Execution ISA"). Version 6.0
// (CUDA 9.0) and target sm_50 keep it loadable by every driver since CUDA 9 on every GPU
// from Maxwell on; the JIT recompiles it for the actual architecture.
constexpr const char kPtx[] = R"PTX(
.version 6.0
.target sm_50
.address_size 64

// y[i] = a * x[i] + y[i]
.visible .entry tfgpu_saxpy(
    .param .f32 p_a,
    .param .u64 p_x,
    .param .u64 p_y,
    .param .u32 p_n)
{
    .reg .pred  %p<2>;
    .reg .f32   %f<5>;
    .reg .b32   %r<6>;
    .reg .b64   %rd<8>;

    ld.param.f32    %f1, [p_a];
    ld.param.u64    %rd1, [p_x];
    ld.param.u64    %rd2, [p_y];
    ld.param.u32    %r1, [p_n];
    mov.u32         %r2, %ctaid.x;
    mov.u32         %r3, %ntid.x;
    mov.u32         %r4, %tid.x;
    mad.lo.s32      %r5, %r2, %r3, %r4;
    setp.ge.u32     %p1, %r5, %r1;
    @%p1 bra        DONE;
    cvta.to.global.u64  %rd3, %rd1;
    cvta.to.global.u64  %rd4, %rd2;
    mul.wide.u32    %rd5, %r5, 4;
    add.s64         %rd6, %rd3, %rd5;
    add.s64         %rd7, %rd4, %rd5;
    ld.global.f32   %f2, [%rd6];
    ld.global.f32   %f3, [%rd7];
    fma.rn.f32      %f4, %f1, %f2, %f3;
    st.global.f32   [%rd7], %f4;
DONE:
    ret;
}

// dst[i] = src[i] over n 16-byte words, grid-stride loop (bandwidth kernel)
.visible .entry tfgpu_copy16(
    .param .u64 p_src,
    .param .u64 p_dst,
    .param .u64 p_n)
{
    .reg .pred  %p<2>;
    .reg .b32   %r<10>;
    .reg .b64   %rd<12>;

    ld.param.u64    %rd1, [p_src];
    ld.param.u64    %rd2, [p_dst];
    ld.param.u64    %rd3, [p_n];
    cvta.to.global.u64  %rd1, %rd1;
    cvta.to.global.u64  %rd2, %rd2;
    mov.u32         %r1, %ctaid.x;
    mov.u32         %r2, %ntid.x;
    mov.u32         %r3, %tid.x;
    mov.u32         %r4, %nctaid.x;
    mad.lo.s32      %r5, %r1, %r2, %r3;
    cvt.u64.u32     %rd4, %r5;
    mul.wide.u32    %rd5, %r4, %r2;
LOOP:
    setp.ge.u64     %p1, %rd4, %rd3;
    @%p1 bra        DONE;
    shl.b64         %rd6, %rd4, 4;
    add.s64         %rd7, %rd1, %rd6;
    add.s64         %rd8, %rd2, %rd6;
    ld.global.v4.u32    {%r6, %r7, %r8, %r9}, [%rd7];
    st.global.v4.u32    [%rd8], {%r6, %r7, %r8, %r9};
    add.s64         %rd4, %rd4, %rd5;
    bra.uni         LOOP;
DONE:
    ret;
}
)PTX";

}  // namespace

const char* kernels_ptx() { return kPtx; }

}  // namespace tfgpu::gpu
