/* Private to the core: inlining as a cost decision. On an 8-bit CPU a call into a big function
 * pays for saving every register that function uses, so rarely taken paths stay out of line
 * (HB_NOINLINE) and hot ones are inlined (HB_ALWAYS_INLINE) whatever -Os estimates. */
#ifndef HB_INLINE_H
#define HB_INLINE_H

#if defined(__GNUC__)
#define HB_ALWAYS_INLINE inline __attribute__((always_inline))
#define HB_NOINLINE __attribute__((noinline))
#else
#define HB_ALWAYS_INLINE inline
#define HB_NOINLINE
#endif

#endif
