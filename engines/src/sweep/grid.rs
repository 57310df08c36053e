//! The points of a sweep: every combination of the listed values, in a fixed order, each with
//! a seed derived from the sweep's seed and its index.

use grfgen_hdl::params::{ParamError, Params};

/// The values listed for one name, in the order given.
pub type List = (String, Vec<String>);

/// Every combination of `lists` applied to `base`, the first list outermost, validated.
pub fn grid<P: Params>(base: &P, lists: &[List]) -> Result<Vec<P>, ParamError> {
    let mut points = vec![base.clone()];
    for (name, values) in lists {
        let param = P::param(name).expect("listed from the table");
        let mut next = Vec::with_capacity(points.len() * values.len());
        for point in &points {
            for value in values {
                let mut p = point.clone();
                param.set(&mut p, value)?;
                next.push(p);
            }
        }
        points = next;
    }
    for p in &mut points {
        p.settle(&|name| lists.iter().any(|(listed, _)| listed == name));
        p.validate()?;
    }
    Ok(points)
}

/// The points a shard `i` of `n` runs: those whose index is `i` modulo `n`.
pub fn in_shard(index: usize, shard: (usize, usize)) -> bool {
    index % shard.1 == shard.0
}
