/* The compiler-specific pieces of the C core, in one place.
 *
 * Every kernel uses these instead of GCC/Clang builtins or `__int128`, so the core builds with
 * GCC, Clang and MSVC (C11, no VLAs, no GNU extensions).  Each has up to three routes:
 *   - GCC and Clang builtins (the speed path on Linux and macOS);
 *   - MSVC intrinsics (<intrin.h>) on Windows;
 *   - plain C, used when neither is there, and forced everywhere by defining
 *     CL_PORTABLE_FALLBACK (tests/test_core_build.py builds the core that way and runs the
 *     kernel tests against it, so the fallbacks are tested on this machine too).
 *
 * The 128-bit integer is a value type `cl_i128` with the few operations the kernels need
 * (add, a 64 x 64 -> 128 product, a product by a 64-bit word, compare, the two words): native `__int128` where the
 * compiler has it, two 64-bit words otherwise.
 */
#ifndef CARDLAB_PORTABLE_H
#define CARDLAB_PORTABLE_H

#include <stdint.h>

#if !defined(CL_PORTABLE_FALLBACK) && (defined(__GNUC__) || defined(__clang__))
#define CL_GNU 1
#elif !defined(CL_PORTABLE_FALLBACK) && defined(_MSC_VER)
#define CL_MSVC 1
#include <intrin.h>
#endif

/* The compiler that built the core (cardlab._core.build_info()), and which routes it takes. */
#define CL_STR2(x) #x
#define CL_STR(x) CL_STR2(x)
#if defined(__clang__)
#define CL_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define CL_COMPILER "gcc " __VERSION__
#elif defined(_MSC_VER)
#define CL_COMPILER "MSVC " CL_STR(_MSC_FULL_VER)
#else
#define CL_COMPILER "unknown C11 compiler"
#endif
#if defined(CL_GNU)
#define CL_ROUTE "gnu"
#elif defined(CL_MSVC)
#define CL_ROUTE "msvc"
#else
#define CL_ROUTE "plain"
#endif

/* Branch hints: advice only, so the fallback is the bare condition. */
#ifdef CL_GNU
#define CL_LIKELY(x) __builtin_expect(!!(x), 1)
#define CL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CL_LIKELY(x) (x)
#define CL_UNLIKELY(x) (x)
#endif

/* A hint to load the cache line of p for reading soon: advice only, so the fallback does nothing. */
#if defined(CL_GNU)
#define CL_PREFETCH(p) __builtin_prefetch((p), 0, 3)
#elif defined(CL_MSVC)
#define CL_PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define CL_PREFETCH(p) ((void)(p))
#endif

/* Number of set bits. */
static inline int cl_popcount32(uint32_t x)
{
#if defined(CL_GNU)
    return __builtin_popcount(x);
#elif defined(CL_MSVC)
    return (int)__popcnt(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}

static inline int cl_popcount64(uint64_t x)
{
#if defined(CL_GNU)
    return __builtin_popcountll(x);
#elif defined(CL_MSVC) && defined(_M_X64)
    return (int)__popcnt64(x);
#else
    return cl_popcount32((uint32_t)x) + cl_popcount32((uint32_t)(x >> 32));
#endif
}

/* The number of set bits of each 16-bit lane of x, in that lane: four counts at once in plain
 * C (no popcnt instruction is assumed of the processor), e.g. the four suit lengths of a hand. */
static inline uint64_t cl_popcount_lanes16(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (x + (x >> 8)) & UINT64_C(0x00FF00FF00FF00FF);
}

/* Index of the lowest set bit; x must not be 0. */
static inline int cl_ctz64(uint64_t x)
{
#if defined(CL_GNU)
    return __builtin_ctzll(x);
#elif defined(CL_MSVC) && defined(_M_X64)
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
#else
    int n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* Signed 64-bit arithmetic that reports overflow: returns 1 (and leaves *r unspecified) when the
 * exact result does not fit, 0 otherwise. */
static inline int cl_add_overflow(int64_t a, int64_t b, int64_t *r)
{
#if defined(CL_GNU)
    return __builtin_add_overflow(a, b, r);
#else
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return 1;
    *r = a + b;
    return 0;
#endif
}

/* a - b overflows exactly when a + (-b) does, except for b = INT64_MIN, whose negation does not
 * fit: then a - b = a + 2^63 fits only for negative a. */
static inline int cl_sub_overflow(int64_t a, int64_t b, int64_t *r)
{
#if defined(CL_GNU)
    return __builtin_sub_overflow(a, b, r);
#else
    if (b == INT64_MIN) {
        if (a >= 0)
            return 1;
        *r = (a + INT64_MAX) + 1;
        return 0;
    }
    return cl_add_overflow(a, -b, r);
#endif
}

static inline int cl_mul_overflow(int64_t a, int64_t b, int64_t *r)
{
#if defined(CL_GNU)
    return __builtin_mul_overflow(a, b, r);
#else
    if (a == 0 || b == 0) {
        *r = 0;
        return 0;
    }
    if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN))
        return 1;
    if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
              : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
        return 1;
    *r = a * b;
    return 0;
#endif
}

/* A signed 128-bit integer. */
#if defined(CL_GNU) && defined(__SIZEOF_INT128__)
#define CL_I128_NATIVE 1
__extension__ typedef __int128 cl_i128;
__extension__ typedef unsigned __int128 cl_u128_native;

static inline cl_i128 cl_i128_of(int64_t a) { return (cl_i128)a; }
static inline cl_i128 cl_i128_add(cl_i128 a, cl_i128 b) { return a + b; }
static inline cl_i128 cl_i128_mul64(int64_t a, int64_t b) { return (cl_i128)a * b; }
static inline cl_i128 cl_i128_mul(cl_i128 a, int64_t b) { return a * b; }
static inline int cl_i128_cmp(cl_i128 a, cl_i128 b) { return a < b ? -1 : (a > b ? 1 : 0); }
static inline uint64_t cl_i128_lo(cl_i128 a) { return (uint64_t)(cl_u128_native)a; }
static inline uint64_t cl_i128_hi(cl_i128 a) { return (uint64_t)((cl_u128_native)a >> 64); }
#else
typedef struct {
    uint64_t lo, hi; /* two's complement: the value is hi * 2^64 + lo, hi read as signed */
} cl_i128;

static inline cl_i128 cl_i128_of(int64_t a)
{
    cl_i128 r;
    r.lo = (uint64_t)a;
    r.hi = a < 0 ? UINT64_MAX : 0;
    return r;
}

static inline cl_i128 cl_i128_add(cl_i128 a, cl_i128 b)
{
    cl_i128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
}

/* 64 x 64 -> 128 unsigned product from 32-bit halves. */
static inline cl_i128 cl_u128_mul64(uint64_t a, uint64_t b)
{
    const uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    cl_i128 r;
    r.lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
}

static inline cl_i128 cl_i128_neg(cl_i128 a)
{
    cl_i128 r;
    r.lo = ~a.lo + 1;
    r.hi = ~a.hi + (r.lo == 0);
    return r;
}

static inline cl_i128 cl_i128_mul64(int64_t a, int64_t b)
{
    const int negative = (a < 0) != (b < 0);
    const uint64_t ua = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
    const uint64_t ub = b < 0 ? (uint64_t)0 - (uint64_t)b : (uint64_t)b;
    const cl_i128 r = cl_u128_mul64(ua, ub);
    return negative ? cl_i128_neg(r) : r;
}

/* a * b modulo 2^128 (exact whenever the product fits). */
static inline cl_i128 cl_i128_mul(cl_i128 a, int64_t b)
{
    cl_i128 r = cl_u128_mul64(a.lo, (uint64_t)b);
    const uint64_t b_hi = b < 0 ? UINT64_MAX : 0;
    r.hi += a.hi * (uint64_t)b + a.lo * b_hi;
    return r;
}

static inline int cl_i128_cmp(cl_i128 a, cl_i128 b)
{
    const int64_t ha = (int64_t)a.hi, hb = (int64_t)b.hi;
    if (ha != hb)
        return ha < hb ? -1 : 1;
    return a.lo < b.lo ? -1 : (a.lo > b.lo ? 1 : 0);
}

static inline uint64_t cl_i128_lo(cl_i128 a) { return a.lo; }
static inline uint64_t cl_i128_hi(cl_i128 a) { return a.hi; }
#endif

/* The full 128-bit product of two unsigned 64-bit words: the high word returned, the low one in
 * *lo (the batched bounded draw of rng.h). */
static inline uint64_t cl_mul64_wide(uint64_t a, uint64_t b, uint64_t *lo)
{
#if defined(CL_I128_NATIVE)
    const cl_u128_native p = (cl_u128_native)a * b;
    *lo = (uint64_t)p;
    return (uint64_t)(p >> 64);
#else
    const cl_i128 p = cl_u128_mul64(a, b);
    *lo = p.lo;
    return p.hi;
#endif
}

/* A shared counter that threads advance together (a work queue's cursor): adds v to *p and
 * returns the value before, atomically (relaxed order: the counter hands out disjoint ranges and
 * orders nothing else).  GCC/Clang builtins, MSVC's interlocked add, or C11 <stdatomic.h>. */
#if defined(CL_GNU)
static inline int64_t cl_atomic_fetch_add64(int64_t *p, int64_t v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
#elif defined(CL_MSVC)
static inline int64_t cl_atomic_fetch_add64(int64_t *p, int64_t v)
{
    return _InterlockedExchangeAdd64((volatile __int64 *)p, v);
}
#elif !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
static inline int64_t cl_atomic_fetch_add64(int64_t *p, int64_t v)
{
    return atomic_fetch_add_explicit((_Atomic int64_t *)p, v, memory_order_relaxed);
}
#else
#error "cardlab's core needs an atomic add (GCC/Clang builtins, MSVC intrinsics or C11 atomics)"
#endif

/* The one-bit word of the i-th (from 0) set bit of x, i below the bits set: a binary search on
 * counts (cl_select_bit_native is the same by BMI2's PDEP). */
static inline uint64_t cl_select_bit_plain(uint64_t x, uint32_t i)
{
    int base = 0;
    for (int width = 32; width; width >>= 1) {
        const uint32_t below = (uint32_t)cl_popcount64(x & ((UINT64_C(1) << width) - 1));
        if (i >= below) {
            i -= below;
            x >>= width;
            base += width;
        }
    }
    return UINT64_C(1) << base;
}

/* Runtime dispatch to the processor's wider instructions.  On x86-64 with GCC or Clang a kernel
 * may be compiled a second time with CL_TARGET_NATIVE (AVX2, BMI1/2, POPCNT, LZCNT) beside its
 * plain version; cl_native() says, at each call (before the kernel releases the interpreter
 * lock), whether to run it: the processor has those instructions and the environment variable
 * CARDLAB_PORTABLE is unset, empty or "0".  Both versions compute the same results (the tests
 * run both).  Elsewhere (MSVC, other processors, CL_PORTABLE_FALLBACK) only the plain one. */
#if defined(CL_GNU) && defined(__x86_64__)
#include <stdlib.h>
#define CL_DISPATCH 1
#define CL_TARGET_NATIVE __attribute__((target("avx2,bmi,bmi2,popcnt,lzcnt")))

#include <immintrin.h>

/* The one-bit word of the i-th set bit of x (BMI2's PDEP; for CL_TARGET_NATIVE code only). */
CL_TARGET_NATIVE static inline uint64_t cl_select_bit_native(uint64_t x, uint32_t i)
{
    return _pdep_u64(UINT64_C(1) << i, x);
}

static inline int cl_native(void)
{
    const char *forced = getenv("CARDLAB_PORTABLE");
    if (forced != NULL && forced[0] != '\0' && !(forced[0] == '0' && forced[1] == '\0'))
        return 0;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}
#else
static inline int cl_native(void) { return 0; }
#endif

#endif
