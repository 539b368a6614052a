#[cfg(test)]
mod t {
    #[test]
    fn z3_works() {
        let s = z3::Solver::new();
        let mut p = z3::Params::new();
        p.set_u32("timeout", 1000);
        s.set_params(&p);
        s.from_string("(declare-const x (_ BitVec 128)) (assert (= (bvadd x #x00000000000000000000000000000001) #x00000000000000000000000000000000))");
        let r = s.check();
        println!("{:?}", r);
        let m = s.get_model().unwrap();
        let x = z3::ast::BV::new_const("x", 128);
        println!("{}", m.eval(&x, true).unwrap());
        println!("{}", z3::full_version());
    }
}
