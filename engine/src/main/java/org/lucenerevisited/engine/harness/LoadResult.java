package org.lucenerevisited.engine.harness;

/**
 * What an {@link OpenLoop} run measured. Latency runs from a request's intended send time to its
 * completion, service time from its start to its completion; all times in ns.
 *
 * <p>{@code intervals}, one row per interval: interval (from 0), phase ("load" while requests are
 * sent, then "drain" while the dispatched ones finish; the last row is always a drain row),
 * t_ms (the interval's end, ms since the load's start), interval_ns, completed, p50_ns, p90_ns,
 * p99_ns, max_ns (latency; 0 when none completed), mean_service_ns (NaN when none completed),
 * backlog (requests queued, not yet started, at the interval's end), undispatched (requests due
 * but not yet handed to the queue at the end: the dispatcher falling behind), cpu_ns (process CPU
 * time used; CPU share = cpu_ns / (interval_ns * cores)), worker_cpu_ns (the workers' CPU
 * time: the requests' own work, without the generator's, the JIT's or the collector's), jit_ms
 * and gc_ms (JIT compilation time, summed over compiler threads, and GC time in the interval).
 *
 * <p>{@code summary}, one row: offered_rate (requests/s), workers, duration_ns, cores (the CPUs
 * the caller of {@link OpenLoop#run} could use, before any pinning), server_cores (the CPUs the
 * workers were pinned to, or cores),
 * dispatched, completed (in the load or the drain), completion_rate (completions during the load
 * per second of load: what the server sustained), unfinished (dispatched but not completed when
 * the drain ended, queued or running), p50_ns, p90_ns, p99_ns, p999_ns, max_ns (latency over every
 * completed request), mean_service_ns, cpu_share (the load phase's process CPU time over its wall
 * time times cores), worker_cpu_share (the workers' CPU time in the load phase over its wall
 * time times server_cores: how busy the server's CPUs were with requests), backlog_end (at the
 * load's end), backlog_growth (backlog_end minus the backlog at the end of the first interval,
 * or minus 0 when the load had a single interval),
 * max_undispatched (over the load's intervals), jit_ms and gc_ms (over the load's intervals: JIT
 * compilation and GC while requests were sent; their share of the load is over duration_ns).
 */
public record LoadResult(Table intervals, Table summary) {}
