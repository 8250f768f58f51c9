//! Batch solving on every core: puzzles are read in chunks, each chunk is
//! solved in parallel, and results are handed on in input order, so memory
//! stays bounded however long the input is.

use rayon::prelude::*;

/// Runs `work` over `items` on `jobs` threads, calling `sink` with each
/// result in input order. Stops at the first error `sink` returns.
pub fn for_each_ordered<T, R, E>(
    items: impl Iterator<Item = T>,
    jobs: usize,
    work: impl Fn(usize, T) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
    R: Send,
{
    let jobs = jobs.max(1);
    // Big enough to keep every thread busy despite uneven puzzle times,
    // small enough that memory does not grow with the input.
    let chunk_size = 64 * jobs;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build();
    let mut items = items.enumerate().peekable();
    while items.peek().is_some() {
        let chunk: Vec<(usize, T)> = items.by_ref().take(chunk_size).collect();
        let results: Vec<R> = match &pool {
            Ok(pool) if jobs > 1 => pool.install(|| {
                chunk
                    .into_par_iter()
                    .map(|(i, item)| work(i, item))
                    .collect()
            }),
            // One job (or no thread pool to be had): solve on this thread.
            _ => chunk.into_iter().map(|(i, item)| work(i, item)).collect(),
        };
        for r in results {
            sink(r)?;
        }
    }
    Ok(())
}

/// The number of cores to use by default.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_input_order() {
        let mut seen = Vec::new();
        let r: Result<(), ()> = for_each_ordered(
            0..1000u64,
            4,
            |i, x| {
                // Uneven work so that threads finish out of order.
                let spin = (x * 7919) % 1000;
                let busy = (0..spin).fold(i as u64, |a, b| a.wrapping_add(b));
                (busy & 0xffff_ffff) | (x << 32)
            },
            |r| {
                seen.push(r >> 32);
                Ok(())
            },
        );
        assert!(r.is_ok());
        assert_eq!(seen, (0..1000).collect::<Vec<_>>());
    }
}
