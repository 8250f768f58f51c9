//! The text after each command's `--help`: examples, then what the exit
//! codes mean for that command (scripts test them; every command says).

/// After `sudolog --help`.
pub const MAIN: &str = "Examples:
  sudolog solve puzzles.txt                   solve every puzzle in the file
  sudolog explain puzzles.txt r3c5            why r3c5 holds its digit
  sudolog grade puzzles.txt                   the hardest technique each puzzle needs
  sudolog check my_technique.dl               check a rule file with the library

Exit codes (each command's --help says what they mean for it):
  0  success
  1  the run ended without the result asked for (a puzzle not solved, a fact not derived)
  2  invalid input: a bad puzzle or unreadable file, bad rules, bad arguments
130  interrupted by Ctrl-C";

/// After `sudolog solve --help`.
pub const SOLVE: &str = "Examples:
  sudolog solve puzzles.txt                       solve, guessing where the rules stall
  sudolog solve --format line big.txt > out.txt   one line per puzzle, on every core
  sudolog solve --logic-only --max-tier all p.txt the rules only (every technique): pencil marks where they stall
  sudolog solve --logic-only --format candidates p.txt   the same state as one candidate line per puzzle (hint reads it)
  sudolog solve --count 2 p.txt                   whether each puzzle has exactly one solution
  sudolog solve --trace p.txt                     every step, guess and backtrack
  cat p.txt | sudolog solve -                     read standard input

Exit codes:
  0  every puzzle solved
  1  some puzzle not solved: no solution, stalled, stopped by a limit
  2  invalid input: a bad puzzle or unreadable file, bad rules, bad arguments;
     or the output cannot be written (a closed pipe, as in `| head`, ends quietly with 0)
130  interrupted by Ctrl-C: every result finished before it was written";

/// After `sudolog check --help`.
pub const CHECK: &str = "Examples:
  sudolog check                               the built-in library: relations, techniques, rules
  sudolog check my_technique.dl               a new rule file beside the library
  sudolog check a.dl b.dl --variant x         several files, with a variant's rules
  sudolog check --rules my_rules/             a rule set of your own
  sudolog check my_technique.dl --plan        ... and what its rules compile to

Exit codes:
  0  the rules are valid
  1  the rules have errors (each located, with what to do)
  2  bad arguments or an unreadable rule file";

/// After `sudolog facts --help`.
pub const FACTS: &str = "Examples:
  sudolog facts p.txt --relation placed         every placement, with its rule and step
  sudolog facts p.txt --rule singles            what the singles derived
  sudolog facts p.txt --at 12                   the facts known after step 12
  sudolog facts p.txt --sqlite facts.db         everything, as a SQLite database

Exit codes:
  0  the facts were printed
  1  nothing to inspect: the rules stopped before reaching a state
  2  invalid input: a bad puzzle, selector, rule file or argument";

/// After `sudolog query --help`.
pub const QUERY: &str = "Examples:
  sudolog query p.txt 'placed(C, 5), row(C, 3)'       where 5 went in row 3
  sudolog query p.txt 'eliminated(r1c1, D)'           the digits r1c1 lost
  sudolog query --max-tier 7 p.txt 'link(A, B, 7, U)'   7's strong links

Exit codes:
  0  the query has answers
  1  it has none (or the rules stopped before reaching a state)
  2  invalid input: a bad puzzle, query, rule file or argument";

/// After `sudolog explain --help`.
pub const EXPLAIN: &str = "Examples:
  sudolog explain p.txt r3c5                       why r3c5 holds its digit
  sudolog explain p.txt 'eliminated(r1c2, 7)'      why 7 left r1c2
  sudolog explain --depth 2 p.txt r3c5             only the top two levels

Exit codes:
  0  every fact asked about was explained
  1  some fact does not hold (or the rules stopped before reaching a state)
  2  invalid input: a bad puzzle, fact, rule file or argument";

/// After `sudolog grade --help`.
pub const GRADE: &str = "Examples:
  sudolog grade puzzles.txt                  per puzzle, its rating (SER scale: rating/pearl/diamond)
                                             and the hardest technique it needs
  sudolog grade --format json puzzles.txt    the same with the facts each technique derived
                                             and every step's rating
  sudolog grade --compare ser.txt p.txt      rank correlation and bands against published ratings
  sudolog grade --extra turbot_fish,wxyz_wing,vwxyz_wing p.txt
                                             rated on Sukaku Explainer's scale

Exit codes:
  0  every puzzle graded
  1  some puzzle has no grade: no solution, several solutions, or cut short by a limit
  2  invalid input: a bad puzzle or unreadable file, bad rules, bad arguments,
     or a `--compare` file that does not read";

/// After `sudolog generate --help`.
pub const GENERATE: &str = "Examples:
  sudolog generate --count 10                      ten minimal puzzles, any rating
  sudolog generate --count 100 --rating 6.5..7.4   a hundred that need chains (SER 6.5 to 7.4)
  sudolog generate --technique XY-wing --seed 7    one whose solution path uses an XY-wing
  sudolog generate --symmetry rotational --count 5 --format json
  sudolog generate --count 20 > p.txt && sudolog grade p.txt

Exit codes:
  0  every puzzle asked for was made
  1  some puzzle was not found within --max-attempts
  2  invalid arguments or rules";

/// After `sudolog hint --help`.
pub const HINT: &str = "Examples:
  sudolog hint stuck.txt                     the easiest step in each puzzle or pencil-mark state
  sudolog hint --technique fish stuck.txt    the fish there, if any
  sudolog hint --puzzle 3 --format json p.txt

Exit codes:
  0  a step was found for every puzzle (or its grid is full)
  1  some puzzle has no step: no technique applies, the state is impossible, or a limit stopped it
  2  invalid input: a bad puzzle or unreadable file, bad rules, an unknown technique, bad arguments";

/// After `sudolog path --help`.
pub const PATH: &str = "Examples:
  sudolog path puzzle.txt                         the steps, one line each
  sudolog path --svg steps/ puzzle.txt            and a picture of every step
  sudolog path --html path.html puzzle.txt        a page that steps through them (open it from disk)
  sudolog path --puzzle 3 --format json p.txt     every step's cells, digits and rule as JSON

Exit codes:
  0  every puzzle was solved
  1  some puzzle was not: the rules stall (--logic-only), it has no solution, or a limit stopped it
  2  invalid input: a bad puzzle or unreadable file, bad rules, a picture that cannot be written, bad arguments";

/// After `sudolog reglib --help`.
pub const REGLIB: &str = "Examples:
  sudolog reglib tests/data/hodoku/reglib.txt              the table per code and per technique
  sudolog reglib --failures tests/data/hodoku/reglib.txt   and every failed case, with what went wrong
  sudolog reglib --rules-add er.dl --map 0402=empty_rectangle tests/data/hodoku/reglib.txt

Exit codes:
  0  every covered case passed
  1  some case failed (missed an expected deduction, made a wrong one, or found something in a fail case)
  2  invalid input: an unreadable file or case, bad rules, a map to an unknown technique, bad arguments";

/// After `sudolog verify-rules --help`.
pub const VERIFY: &str = "Examples:
  sudolog verify-rules --against puzzles.txt --solutions solutions.txt
  sudolog verify-rules --rules-add my_technique.dl --against 'puzzles_with_solutions.txt'
  sudolog verify-rules --forcing-depth 1 --against p.txt --solutions s.txt   forcing too (not by default)

Exit codes:
  0  no rule (nor forcing, if asked) derived a fact that contradicts a solution
  1  some rule or forcing did (each is listed with the puzzle, the fact and its derivation)
  2  invalid input: a puzzle without a solution or with a wrong one, bad rules, bad arguments";

/// After `sudolog completions --help`.
pub const COMPLETIONS: &str = "Examples:
  sudolog completions bash > ~/.local/share/bash-completion/completions/sudolog
  sudolog completions zsh > ~/.zfunc/_sudolog
  sudolog completions fish > ~/.config/fish/completions/sudolog.fish

Exit codes:
  0  the script was printed
  2  bad arguments (an unknown shell)";

/// After `sudolog man --help`.
pub const MAN: &str = "Examples:
  sudolog man > sudolog.1 && man ./sudolog.1
  sudolog man solve > sudolog-solve.1

Exit codes:
  0  the page was printed
  2  bad arguments (an unknown command)";
