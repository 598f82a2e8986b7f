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

#endif
