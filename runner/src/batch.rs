//! Running dataset rows through a backend one batch at a time, as `replay` and `sweep` do: a
//! batch never loses a row (a backend that answers with the wrong number of results turns the
//! whole batch into error rows instead of mis-pairing them), and each result becomes its output
//! row. The row bar they draw is [`crate::progress::Rows::plain`].

use rdnaprobe_dataset::Row;

use crate::backend::{Backend, RowResult, Status};

/// Runs `rows` on `backend`: one result per row, in order.
pub fn run(backend: &mut dyn Backend, rows: &[Row]) -> Vec<RowResult> {
    let results = backend.run(rows);
    if results.len() == rows.len() {
        return results;
    }
    let msg = format!(
        "backend returned {} results for {} rows",
        results.len(),
        rows.len()
    );
    rows.iter()
        .map(|_| RowResult {
            outputs: [None; 16],
            status: Status::Error(msg.clone()),
        })
        .collect()
}

/// The output row of a backend result: the input row with its outputs replaced.
pub fn output_row(row: &Row, result: &RowResult) -> Row {
    rdnaprobe_dataset::replay_row(row, result.outputs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Producer;

    /// A backend that answers every batch with `n` results.
    struct Short(usize);

    impl Backend for Short {
        fn producer(&self) -> Producer {
            Producer::default()
        }
        fn run(&mut self, _rows: &[Row]) -> Vec<RowResult> {
            vec![
                RowResult {
                    outputs: [Some(7); 16],
                    status: Status::Ok,
                };
                self.0
            ]
        }
    }

    fn rows(n: usize) -> Vec<Row> {
        (0..n)
            .map(|i| Row {
                encoding: vec![0x7e14_0304],
                inputs: [i as u32; 6],
                ..Row::default()
            })
            .collect()
    }

    #[test]
    fn a_miscounted_batch_becomes_error_rows() {
        let rows = rows(3);
        let ok = run(&mut Short(3), &rows);
        assert!(ok
            .iter()
            .all(|r| r.status == Status::Ok && r.outputs[0] == Some(7)));
        for n in [2, 4] {
            let bad = run(&mut Short(n), &rows);
            assert_eq!(bad.len(), 3);
            for r in &bad {
                assert_eq!(
                    r.status,
                    Status::Error(format!("backend returned {n} results for 3 rows"))
                );
                assert_eq!(r.outputs, [None; 16]);
            }
        }
    }
}
