//! Stratification, in one place for the checker and the engine: relations
//! ordered into strata, each after every stratum it reads. The checker
//! builds the graph of the program's relations and rejects a cycle through
//! negation or an exact count ([`Cycle`]); the engine builds the graph of
//! its own relations (a count's synthetic seed and `reached` relations
//! included) and evaluates its static strata in this order.

/// A dependency graph between relations numbered `0..n`: an edge says that
/// a rule deriving one relation reads another.
#[derive(Clone, Debug)]
pub struct Dependencies {
    /// Per relation, the edges to the relations whose rules read it, in the
    /// order they were added.
    read_by: Vec<Vec<Edge>>,
}

#[derive(Clone, Copy, Debug)]
struct Edge {
    head: usize,
    strict: bool,
    rule: usize,
}

/// A strict dependency within a strongly connected component: a relation
/// that would wait for itself to be complete, so no stratification exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The relation read with a negation or an exact count.
    pub body: usize,
    /// The relation whose rule reads it.
    pub head: usize,
    /// That rule, as the caller numbered it in [`Dependencies::add`].
    pub rule: usize,
    /// The relations of the component, in increasing order.
    pub members: Vec<usize>,
}

impl Dependencies {
    /// A graph of `n` relations without edges.
    pub fn new(n: usize) -> Dependencies {
        Dependencies {
            read_by: vec![Vec::new(); n],
        }
    }

    /// Records that `rule`, which derives `head`, reads `body`; `strict`
    /// when `head` must lie in a later stratum than `body` (a negation, or
    /// a count that needs its body complete).
    pub fn add(&mut self, body: usize, head: usize, strict: bool, rule: usize) {
        self.read_by[body].push(Edge { head, strict, rule });
    }

    /// The strata: every relation in one stratum, a stratum being a
    /// strongly connected component, in evaluation order (each after the
    /// strata it reads). Fails with the first strict edge (by the relation
    /// read, then in the order added) that lies within a stratum.
    pub fn stratify(&self) -> Result<Vec<Vec<usize>>, Cycle> {
        let adjacency: Vec<Vec<usize>> = self
            .read_by
            .iter()
            .map(|edges| edges.iter().map(|e| e.head).collect())
            .collect();
        let mut sccs = sccs(&adjacency);
        let mut scc_of = vec![0; adjacency.len()];
        for (i, scc) in sccs.iter().enumerate() {
            for &r in scc {
                scc_of[r] = i;
            }
        }
        for (body, edges) in self.read_by.iter().enumerate() {
            for e in edges {
                if e.strict && scc_of[body] == scc_of[e.head] {
                    return Err(Cycle {
                        body,
                        head: e.head,
                        rule: e.rule,
                        members: std::mem::take(&mut sccs[scc_of[body]]),
                    });
                }
            }
        }
        // Tarjan yields the components in reverse topological order.
        sccs.reverse();
        Ok(sccs)
    }
}

/// The strongly connected components of a directed graph given as
/// adjacency lists, in reverse topological order (a component comes before
/// every component that reaches it). Iterative, so deep dependency chains
/// cannot overflow the stack.
fn sccs(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if *i < edges[v].len() {
                let w = edges[v][*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut scc = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        scc.push(w);
                        if w == v {
                            break;
                        }
                    }
                    scc.sort_unstable();
                    out.push(scc);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Cycle, Dependencies, sccs};

    #[test]
    fn finds_cycles_in_dependency_order() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3
        let edges = vec![vec![1], vec![2], vec![1, 3], vec![]];
        let out = sccs(&edges);
        assert_eq!(out, vec![vec![3], vec![1, 2], vec![0]]);
    }

    #[test]
    fn strata_come_after_what_they_read() {
        // 2 reads 0 and 1; 1 and 3 read each other; 4 reads 3 strictly.
        let mut deps = Dependencies::new(5);
        deps.add(0, 2, false, 0);
        deps.add(1, 2, false, 0);
        deps.add(1, 3, false, 1);
        deps.add(3, 1, false, 2);
        deps.add(3, 4, true, 3);
        let strata = deps.stratify().unwrap();
        assert_eq!(strata.iter().map(Vec::len).sum::<usize>(), 5);
        let at = |r: usize| strata.iter().position(|s| s.contains(&r)).unwrap();
        assert_eq!(at(1), at(3));
        assert!(at(0) < at(2) && at(1) < at(2) && at(3) < at(4));
        // 1 reading 4 pulls 4 into the component it reads strictly.
        deps.add(4, 1, false, 4);
        let cycle = deps.stratify().unwrap_err();
        assert_eq!((cycle.body, cycle.head, cycle.rule), (3, 4, 3));
        assert_eq!(cycle.members, [1, 3, 4]);
    }

    #[test]
    fn a_strict_edge_within_a_component_is_a_cycle() {
        // 1 reads 0, 0 reads !1 (rule 7).
        let mut deps = Dependencies::new(2);
        deps.add(0, 1, false, 3);
        deps.add(1, 0, true, 7);
        assert_eq!(
            deps.stratify(),
            Err(Cycle {
                body: 1,
                head: 0,
                rule: 7,
                members: vec![0, 1],
            })
        );
        // The same negation across strata is fine.
        let mut deps = Dependencies::new(2);
        deps.add(1, 0, true, 7);
        assert_eq!(deps.stratify(), Ok(vec![vec![1], vec![0]]));
    }
}
