//! Tests of the flag parsers of `--bot-time` and `-j` (and `--sizes`).

use super::*;

#[test]
fn bot_times_and_jobs_read_as_documented() {
    let d = Limits::default();
    assert_eq!(
        parse_bot_time("a=3000,200", d).unwrap(),
        ("a".to_string(), Limits::per_tick(Duration::from_millis(3000), Duration::from_millis(200)))
    );
    assert_eq!(parse_bot_time("b=70", d).unwrap().1, Limits::per_tick(d.first, Duration::from_millis(70)));
    let ms = Duration::from_millis;
    let banked = Limits { bank: ms(400), inc: ms(3), ..d };
    assert_eq!(parse_bot_time("c=90,bank=400,inc=3", d).unwrap().1, Limits { rest: ms(90), ..banked });
    assert_eq!(
        parse_bot_time("c=2000,90,inc=3,bank=400", d).unwrap().1,
        Limits { first: ms(2000), rest: ms(90), ..banked }
    );
    assert_eq!(
        parse_bot_time("c=90,bank=0", banked).unwrap().1,
        Limits { rest: ms(90), bank: ms(0), ..banked },
        "bank 0: none of its own"
    );
    assert_eq!(parse_bot_time("c=90", banked).unwrap().1, Limits { rest: ms(90), ..banked }, "the run's bank kept");
    for bad in [
        "=5",
        "a",
        "a=",
        "a=0",
        "a=1,0",
        "a=x,5",
        "a=5,",
        "a=bank=5",
        "a=5,bank=",
        "a=5,bank=x",
        "a=5,bank=1,bank=2",
        "a=5,tip=1",
        "a=1,2,3",
        "a=5,bank=86400001",
    ] {
        assert!(parse_bot_time(bad, d).is_err(), "{bad}");
    }
    assert_eq!(parse_jobs("3"), Ok(3));
    assert_eq!(parse_jobs("auto"), Ok(crate::game::pool::free_cores() as u64));
    assert!(parse_jobs("0").is_err() && parse_jobs("1025").is_err() && parse_jobs("-1").is_err());
}

proptest::proptest! {
    #[test]
    fn any_text_is_a_bot_time_or_an_error_naming_the_flag(text in "\\PC{0,24}") {
        match parse_bot_time(&text, Limits::default()) {
            Ok((name, limits)) => {
                proptest::prop_assert!(!name.is_empty() && text.starts_with(&name));
                proptest::prop_assert!(limits.first >= Duration::from_millis(1) && limits.rest >= Duration::from_millis(1));
            }
            Err(e) => proptest::prop_assert!(e.starts_with("--bot-time ")),
        }
        let _ = parse_jobs(&text);
        if let Err(e) = crate::tournament::maps::parse_sizes(&text) {
            proptest::prop_assert!(e.starts_with("--sizes"));
        }
    }

    #[test]
    fn written_bot_times_read_back(first in 1u64..1_000_000, rest in 1u64..1_000_000) {
        let (name, limits) = parse_bot_time(&format!("bot_1={first},{rest}"), Limits::default()).unwrap();
        proptest::prop_assert_eq!(name, "bot_1");
        proptest::prop_assert_eq!(limits, Limits::per_tick(Duration::from_millis(first), Duration::from_millis(rest)));
    }

    #[test]
    fn written_banks_read_back(rest in 1u64..1_000_000, bank in 0u64..10_000_000, inc in 0u64..100_000) {
        let (_, limits) = parse_bot_time(&format!("b={rest},inc={inc},bank={bank}"), Limits::default()).unwrap();
        let ms = Duration::from_millis;
        proptest::prop_assert_eq!(limits, Limits { rest: ms(rest), bank: ms(bank), inc: ms(inc), ..Limits::default() });
    }
}
