//! Units: values tied by groups (vectors, multi-register writes, kept halves) that move as one,
//! keeping the distances their registers had in the program as written.

use super::values::Slot;
use super::values::Values;
use crate::core::program::Instruction;

/// The units of a program: every value in exactly one.
pub(super) struct Units {
    /// Each unit's values.
    pub members: Vec<Vec<usize>>,
    /// Each value's unit.
    pub unit: Vec<usize>,
    /// Each value's register above its unit's base.
    pub offset: Vec<usize>,
    /// Each unit's base register in the program as written.
    pub original: Vec<usize>,
    /// Each unit's registers from its base: its largest offset + 1.
    pub span: Vec<usize>,
}

/// The root of `v` in the union-find `parent`, compressing the path.
fn root(parent: &mut [usize], v: usize) -> usize {
    let mut r = v;
    while parent[r] != r {
        r = parent[r];
    }
    let mut w = v;
    while parent[w] != r {
        w = std::mem::replace(&mut parent[w], r);
    }
    r
}

impl Units {
    /// The units of `values` in `program` under `groups` (each instruction writing several
    /// registers is a group by itself). The program as written always satisfies them: values
    /// the same register above one base are values of one register, never live at once (each
    /// write starts after its register's last value ends).
    pub fn of(values: &Values, program: &[Instruction], groups: &[Vec<Slot>]) -> Self {
        let n = values.values.len();
        let mut parent: Vec<usize> = (0..n).collect();
        let writes = (0..program.len()).map(|i| values.destinations[i].clone());
        let tied = groups
            .iter()
            .map(|g| g.iter().filter_map(|&s| values.at(program, s)).collect())
            .chain(writes);
        for group in tied {
            let group: Vec<usize> = group;
            for pair in group.windows(2) {
                let (a, b) = (root(&mut parent, pair[0]), root(&mut parent, pair[1]));
                parent[a] = b;
            }
        }
        let mut index = vec![usize::MAX; n];
        let mut members: Vec<Vec<usize>> = Vec::new();
        let unit: Vec<usize> = (0..n)
            .map(|v| {
                let r = root(&mut parent, v);
                if index[r] == usize::MAX {
                    index[r] = members.len();
                    members.push(Vec::new());
                }
                members[index[r]].push(v);
                index[r]
            })
            .collect();
        let original: Vec<usize> = (members.iter())
            .map(|m| {
                m.iter()
                    .map(|&v| values.values[v].original)
                    .min()
                    .unwrap_or(0)
            })
            .collect();
        let offset: Vec<usize> = (0..n)
            .map(|v| values.values[v].original - original[unit[v]])
            .collect();
        let span = (members.iter())
            .map(|m| m.iter().map(|&v| offset[v] + 1).max().unwrap_or(1))
            .collect();
        Self {
            members,
            unit,
            offset,
            original,
            span,
        }
    }
}
