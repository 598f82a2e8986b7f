#ifndef SEGUE_CFFMPEG_SHIM_H
#define SEGUE_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/error.h>
#include <libavutil/hash.h>
#include <libavutil/imgutils.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/video_enc_params.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <malloc.h>

// Swift cannot import function-like or compound-literal macros; each helper
// below stands in for one of them.

/// AVERROR(e): FFmpeg's negative error code for a POSIX errno.
static inline int cffmpeg_averror(int posix_errno) { return AVERROR(posix_errno); }

/// AVERROR_EOF.
static inline int cffmpeg_averror_eof(void) { return AVERROR_EOF; }

/// AV_NOPTS_VALUE ("no timestamp").
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }

/// AV_TIME_BASE_Q (microseconds), the unit of AVFormatContext.duration.
static inline AVRational cffmpeg_time_base_q(void) { return AV_TIME_BASE_Q; }

/// Quiets libav's own logging below the given level; av_log is variadic.
static inline void cffmpeg_set_log_level(int level) { av_log_set_level(level); }

/// The display-matrix rotation of a stream in degrees (counter-clockwise, as
/// av_display_rotation_get returns it), or 0 when the stream has none.
static inline double cffmpeg_stream_rotation(const AVStream *stream) {
    const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (!matrix) return 0;
    double angle = av_display_rotation_get((const int32_t *)matrix);
    return angle != angle ? 0 : angle; // NaN for a degenerate matrix
}

/// The Dolby Vision profile of a stream's configuration record, or -1 when it
/// has none; the record is stream side data, read through a cast Swift can't make.
static inline int cffmpeg_stream_dovi_profile(const AVStream *stream) {
    const AVDOVIDecoderConfigurationRecord *record =
        (const AVDOVIDecoderConfigurationRecord *)av_stream_get_side_data(stream, AV_PKT_DATA_DOVI_CONF, NULL);
    return record ? record->dv_profile : -1;
}

/// Fixes glibc's mmap threshold (mallopt is not in Swift's Glibc module).
/// Pictures are 1-3 MB buffers made and freed all the time; with the default
/// dynamic threshold glibc raises it after the first free and then serves them
/// from the heap, whose fragmentation grew long runs' peak memory by tens of MB.
static inline void cffmpeg_fix_mmap_threshold(int bytes) { mallopt(M_MMAP_THRESHOLD, bytes); }

/// Returns the heap's free memory to the system (malloc_trim), e.g. what
/// probing many clips at once left behind before the stitch starts.
static inline void cffmpeg_trim_heap(void) { malloc_trim(0); }

/// Appends a chapter to an output context before its header is written. The
/// public API has no chapter allocator (avpriv_new_chapter is private), so this
/// allocates it as that does; avformat_free_context frees the chapters, their
/// metadata and the array. On failure nothing is added and nothing leaks.
static inline int cffmpeg_add_chapter(AVFormatContext *context, int64_t id, AVRational time_base,
                                      int64_t start, int64_t end, const char *title) {
    AVChapter *chapter = av_mallocz(sizeof(AVChapter));
    if (!chapter) return AVERROR(ENOMEM);
    chapter->id = id;
    chapter->time_base = time_base;
    chapter->start = start;
    chapter->end = end;
    int count = (int)context->nb_chapters;
    if (av_dict_set(&chapter->metadata, "title", title, 0) < 0
        || av_dynarray_add_nofree(&context->chapters, &count, chapter) < 0) {
        av_dict_free(&chapter->metadata);
        av_free(chapter);
        return AVERROR(ENOMEM);
    }
    context->nb_chapters = (unsigned int)count;
    return 0;
}

/// The mean quantiser of a decoded picture (frame QP plus each block's
/// delta), from the side data a decoder exports when asked
/// (AV_CODEC_EXPORT_DATA_VIDEO_ENC_PARAMS); -1 when there is none.
/// av_video_enc_params_block asserts through a macro, so this walks the blocks here.
static inline double cffmpeg_frame_mean_qp(const AVFrame *frame) {
    const AVFrameSideData *data = av_frame_get_side_data(frame, AV_FRAME_DATA_VIDEO_ENC_PARAMS);
    if (!data) return -1;
    const AVVideoEncParams *params = (const AVVideoEncParams *)data->data;
    if (params->nb_blocks == 0) return params->qp;
    double sum = 0;
    for (unsigned int i = 0; i < params->nb_blocks; i++) {
        const AVVideoBlockParams *block =
            (const AVVideoBlockParams *)((const uint8_t *)params + params->blocks_offset + (size_t)i * params->block_size);
        sum += params->qp + block->delta_qp;
    }
    return sum / params->nb_blocks;
}

/// An io_open callback that refuses every open: set on a demuxer whose bytes
/// come from our own I/O, so no demuxer (a playlist, a reference movie, an
/// image sequence) can open another file or URL on its own.
static inline int cffmpeg_refuse_nested_open(AVFormatContext *context, AVIOContext **pb, const char *url,
                                             int flags, AVDictionary **options) {
    (void)context; (void)pb; (void)url; (void)flags; (void)options;
    return AVERROR(EPERM);
}

/// Installs `cffmpeg_refuse_nested_open` on a format context.
static inline void cffmpeg_refuse_nested_opens(AVFormatContext *context) {
    context->io_open = cffmpeg_refuse_nested_open;
}

/// Asks the processor to start loading the cache line at `address` for a read
/// soon (no fault, whatever the address): GL effects that sample far from
/// where they paint find their places a tile row ahead of their samples.
static inline void cffmpeg_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// `x` truncated to an int, for an `x` the caller has held within int's range.
static inline int cffmpeg_truncate(float x) { return (int)x; }

#if defined(__SSE2__)
#include <emmintrin.h>
#include <stdint.h>

/// Stores the colour `r, g, b, a` at `at` (16-byte aligned) past the
/// caches: for a picture written whole, bigger than they are, whose lines
/// then need not be read in before they are written over.
static inline void cffmpeg_gl_stream_colour(float *at, float r, float g, float b, float a) {
    _mm_stream_ps(at, _mm_setr_ps(r, g, b, a));
}

/// Orders the streamed stores before those that follow (before the threads that read them are told they are done).
static inline void cffmpeg_gl_stream_fence(void) { _mm_sfence(); }

/// Where a picture's pixels lie and how far `cffmpeg_gl_sample_*` hold
/// their taps: rows `first_row...last_row` of a picture `width` wide, row
/// `first_row` at the pixels; `origin` is `first_row * width`.
typedef struct {
    long width, origin;
    float width_f, height_f;
    int first_row, last_row;
} cffmpeg_gl_geometry;

/// Two bilinear samples (LINEAR filtering, CLAMP_TO_EDGE): lanes 0 and 1 of
/// `x` (a place in pixels across and down, less half a pixel) in `first`'s
/// pixels, written to `first_out`; lanes 2 and 3 in `second`'s, to
/// `second_out` (pictures of one geometry, `g`). GLTexture's `sample` in
/// SSE2: the same IEEE sums in the same order (no fused arithmetic here:
/// SSE2 has none), so the same bytes. Two places both a pixel or more past
/// the picture across and down read their corner pixels once.
static inline void cffmpeg_gl_sample_lanes(const float *first, const float *second, const cffmpeg_gl_geometry *g,
                                           __m128 x, float *first_out, float *second_out) {
    const __m128 size = _mm_setr_ps(g->width_f, g->height_f, g->width_f, g->height_f);
    const __m128 minus_one = _mm_set1_ps(-1.0f), one = _mm_set1_ps(1.0f), magic = _mm_set1_ps(12582912.0f);
    const __m128i magic_bits = _mm_set1_epi32(0x4B400000), next_one = _mm_set1_epi32(1);
    const __m128i first_held = _mm_setr_epi32(0, g->first_row, 0, g->first_row);
    const __m128i last_held = _mm_setr_epi32((int)g->width - 1, g->last_row, (int)g->width - 1, g->last_row);
    const float *pixels[2] = { first, second };
    float *outs[2] = { first_out, second_out };
    // At or below -1 (or a NaN): the first pixel; at or past the size: the last.
    __m128 before = _mm_cmpngt_ps(x, minus_one), past = _mm_cmpnlt_ps(x, size);
    if (_mm_movemask_ps(_mm_or_ps(past, before)) == 15) {
        int32_t at_first[4];
        _mm_storeu_si128((__m128i *)at_first, _mm_castps_si128(before));
        for (int k = 0; k < 4; k += 2) {
            long at = (at_first[k + 1] ? g->first_row : g->last_row) * g->width - g->origin + (at_first[k] ? 0 : g->width - 1);
            _mm_store_ps(outs[k / 2], _mm_load_ps(pixels[k / 2] + 4 * at));
        }
        return;
    }
    x = _mm_or_ps(_mm_and_ps(past, size), _mm_andnot_ps(past, x));
    x = _mm_or_ps(_mm_and_ps(before, minus_one), _mm_andnot_ps(before, x));
    // GLSL.floorAndFraction: x rounded to the nearest by 1.5 * 2^23, less one where that rounded up.
    __m128 shifted = _mm_add_ps(x, magic);
    __m128 offset = _mm_add_ps(_mm_sub_ps(x, _mm_sub_ps(shifted, magic)), _mm_setzero_ps());
    __m128i borrow = _mm_srli_epi32(_mm_castps_si128(offset), 31);
    __m128i floors = _mm_sub_epi32(_mm_sub_epi32(_mm_castps_si128(shifted), magic_bits), borrow);
    __m128 fractions = _mm_add_ps(offset, _mm_and_ps(one, _mm_castsi128_ps(_mm_sub_epi32(_mm_setzero_si128(), borrow))));
    // Each floor and the next, held to the first and last column and row.
    __m128i next = _mm_add_epi32(floors, next_one), out;
    out = _mm_cmplt_epi32(floors, first_held); __m128i low = _mm_or_si128(_mm_and_si128(out, first_held), _mm_andnot_si128(out, floors));
    out = _mm_cmpgt_epi32(low, last_held); low = _mm_or_si128(_mm_and_si128(out, last_held), _mm_andnot_si128(out, low));
    out = _mm_cmplt_epi32(next, first_held); __m128i high = _mm_or_si128(_mm_and_si128(out, first_held), _mm_andnot_si128(out, next));
    out = _mm_cmpgt_epi32(high, last_held); high = _mm_or_si128(_mm_and_si128(out, last_held), _mm_andnot_si128(out, high));
    int32_t lows[4], highs[4]; float f[4];
    _mm_storeu_si128((__m128i *)lows, low); _mm_storeu_si128((__m128i *)highs, high); _mm_storeu_ps(f, fractions);
    for (int k = 0; k < 4; k += 2) {
        const float *p = pixels[k / 2];
        long top = (long)lows[k + 1] * g->width - g->origin, bottom = (long)highs[k + 1] * g->width - g->origin;
        __m128 across = _mm_set1_ps(f[k]), left = _mm_set1_ps(1.0f - f[k]);
        __m128 down = _mm_set1_ps(f[k + 1]), up = _mm_set1_ps(1.0f - f[k + 1]);
        __m128 upper = _mm_add_ps(_mm_mul_ps(_mm_load_ps(p + 4 * (top + lows[k])), left),
                                  _mm_mul_ps(_mm_load_ps(p + 4 * (top + highs[k])), across));
        __m128 lower = _mm_add_ps(_mm_mul_ps(_mm_load_ps(p + 4 * (bottom + lows[k])), left),
                                  _mm_mul_ps(_mm_load_ps(p + 4 * (bottom + highs[k])), across));
        _mm_store_ps(outs[k / 2], _mm_add_ps(_mm_mul_ps(upper, up), _mm_mul_ps(lower, down)));
    }
}

/// A place in texture coordinates (origin at the bottom left) in pixels across and down, less half a pixel, in two lanes each.
static inline __m128 cffmpeg_gl_pixel_places(const cffmpeg_gl_geometry *g, float x0, float y0, float x1, float y1) {
    const __m128 size = _mm_setr_ps(g->width_f, g->height_f, g->width_f, g->height_f);
    return _mm_sub_ps(_mm_mul_ps(_mm_setr_ps(x0, 1.0f - y0, x1, 1.0f - y1), size), _mm_set1_ps(0.5f));
}

/// A GL texture's bilinear samples at `count` places, each place's x and y
/// in the first two floats of its four, each sample written over its place,
/// two places side by side: for an effect that works out a row's places
/// first. Swift's code for the same sums goes through memory and 64-bit
/// lanes on the baseline x86-64 (no SSE4.1), and ran a third slower.
static inline void cffmpeg_gl_sample_places(const float *pixels, cffmpeg_gl_geometry g, float *places, long count) {
    for (long i = 0; i < count; i += 2) {
        float *a = places + 4 * i, *b = places + 4 * (i + 1 < count ? i + 1 : i);
        cffmpeg_gl_sample_lanes(pixels, pixels, &g, cffmpeg_gl_pixel_places(&g, a[0], a[1], b[0], b[1]), a, b);
    }
}

/// Two pictures' samples at `count` pairs of places, the first picture's
/// place in a colour's first two floats, the second's in its last two: the
/// first's sample written over the pair, the second's to `seconds`.
static inline void cffmpeg_gl_sample_place_pairs(const float *first, const float *second, cffmpeg_gl_geometry g,
                                                 float *places, float *seconds, long count) {
    for (long i = 0; i < count; i++) {
        float *a = places + 4 * i;
        cffmpeg_gl_sample_lanes(first, second, &g, cffmpeg_gl_pixel_places(&g, a[0], a[1], a[2], a[3]), a, seconds + 4 * i);
    }
}

/// A Y'CbCr matrix and code range as `cffmpeg_gl_write_blocks` converts with
/// it: luma's weights, Cb's and Cr's scales, and the codes' offsets, steps
/// and top (each offset and step already times the bit depth's scale).
typedef struct {
    float kr, kg, kb, cb_scale, cr_scale;
    float luma_offset, luma_step, chroma_offset, chroma_step, top;
} cffmpeg_gl_codes;

/// Each lane's code: rounded half up, clamped to 0...top (a NaN to 0), as whole numbers.
static inline __m128i cffmpeg_gl_codes_of(__m128 value, __m128 top) {
    __m128 code = _mm_add_ps(value, _mm_set1_ps(0.5f));
    code = _mm_and_ps(code, _mm_cmpgt_ps(code, _mm_setzero_ps()));
    return _mm_cvttps_epi32(_mm_min_ps(code, top));
}

/// `blocks` whole 2x2 blocks of R'G'B' colours (four floats each, two
/// rows, `upper` and `lower`) as Y'CbCr codes: GLCanvas's `write` in SSE2,
/// where Swift's code for its lanes' clamps branched on each. The same IEEE
/// sums in the same order, so the same codes: a NaN component is 0; luma
/// per pixel, Cb and Cr from the block's shares summed upper left, upper
/// right, lower left, lower right. Samples of one byte, or two where `wide`.
static inline void cffmpeg_gl_write_blocks(const float *upper, const float *lower, long blocks, cffmpeg_gl_codes c, int wide,
                                           void *upper_lumas, void *lower_lumas, void *cbs, void *crs) {
    const __m128 kr = _mm_set1_ps(c.kr), kg = _mm_set1_ps(c.kg), kb = _mm_set1_ps(c.kb), top = _mm_set1_ps(c.top);
    const __m128 cb_scale = _mm_set1_ps(c.cb_scale), cr_scale = _mm_set1_ps(c.cr_scale), quarter = _mm_set1_ps(0.25f);
    const __m128 luma_offset = _mm_set1_ps(c.luma_offset), luma_step = _mm_set1_ps(c.luma_step);
    const __m128 chroma_offset = _mm_set1_ps(c.chroma_offset), chroma_step = _mm_set1_ps(c.chroma_step);
    for (long block = 0; block < blocks; block++) {
        // The block's four pixels, upper left to lower right; transposed, their reds, greens, blues and alphas.
        __m128 red = _mm_load_ps(upper + 8 * block), green = _mm_load_ps(upper + 8 * block + 4);
        __m128 blue = _mm_load_ps(lower + 8 * block), alpha = _mm_load_ps(lower + 8 * block + 4);
        _MM_TRANSPOSE4_PS(red, green, blue, alpha);
        red = _mm_and_ps(red, _mm_cmpord_ps(red, red));
        green = _mm_and_ps(green, _mm_cmpord_ps(green, green));
        blue = _mm_and_ps(blue, _mm_cmpord_ps(blue, blue));
        __m128 lumas = _mm_add_ps(_mm_add_ps(_mm_mul_ps(red, kr), _mm_mul_ps(green, kg)), _mm_mul_ps(blue, kb));
        __m128 cb = _mm_mul_ps(_mm_sub_ps(blue, lumas), cb_scale), cr = _mm_mul_ps(_mm_sub_ps(red, lumas), cr_scale);
        __m128 shares = _mm_unpacklo_ps(cb, cr), later = _mm_unpackhi_ps(cb, cr);   // (cb0 cr0 cb1 cr1), (cb2 cr2 cb3 cr3)
        __m128 sums = _mm_add_ps(shares, _mm_movehl_ps(shares, shares));
        sums = _mm_add_ps(_mm_add_ps(sums, later), _mm_movehl_ps(later, later));
        int32_t luma[4], chroma[4];
        _mm_storeu_si128((__m128i *)luma, cffmpeg_gl_codes_of(_mm_add_ps(luma_offset, _mm_mul_ps(luma_step, lumas)), top));
        _mm_storeu_si128((__m128i *)chroma, cffmpeg_gl_codes_of(_mm_add_ps(chroma_offset, _mm_mul_ps(chroma_step, _mm_mul_ps(sums, quarter))), top));
        if (wide) {
            uint16_t *up = (uint16_t *)upper_lumas + 2 * block, *low = (uint16_t *)lower_lumas + 2 * block;
            up[0] = (uint16_t)luma[0]; up[1] = (uint16_t)luma[1]; low[0] = (uint16_t)luma[2]; low[1] = (uint16_t)luma[3];
            ((uint16_t *)cbs)[block] = (uint16_t)chroma[0]; ((uint16_t *)crs)[block] = (uint16_t)chroma[1];
        } else {
            uint8_t *up = (uint8_t *)upper_lumas + 2 * block, *low = (uint8_t *)lower_lumas + 2 * block;
            up[0] = (uint8_t)luma[0]; up[1] = (uint8_t)luma[1]; low[0] = (uint8_t)luma[2]; low[1] = (uint8_t)luma[3];
            ((uint8_t *)cbs)[block] = (uint8_t)chroma[0]; ((uint8_t *)crs)[block] = (uint8_t)chroma[1];
        }
    }
}
#endif

#endif
