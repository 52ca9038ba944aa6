//! The teams the sandbox keeps, with their seats.

/// Every team of every organization, and the counter that names new ones.
#[derive(Clone, Debug, Default)]
pub struct Teams {
    pub teams: Vec<Team>,
    pub created: u32,
}

#[derive(Clone, Debug)]
pub struct Team {
    pub id: String,
    pub organization: String,
    pub title: String,
    pub created_at: String,
    /// Spaces the team can reach (a count: the sandbox keeps no per-team access).
    pub spaces: u32,
    pub seats: Vec<Seat>,
}

/// One member of a team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub user: String,
    pub owner: bool,
}

impl Seat {
    pub fn role(&self) -> &'static str {
        if self.owner { "owner" } else { "member" }
    }
}

impl Teams {
    pub fn find(&self, organization: &str, id: &str) -> Option<&Team> {
        self.teams
            .iter()
            .find(|team| team.organization == organization && team.id == id)
    }

    pub fn find_mut(&mut self, organization: &str, id: &str) -> Option<&mut Team> {
        self.teams
            .iter_mut()
            .find(|team| team.organization == organization && team.id == id)
    }

    /// The teams of an organization a user sits in, with their seat.
    pub fn of_member<'a>(
        &'a self,
        organization: &'a str,
        user: &'a str,
    ) -> impl Iterator<Item = (&'a Team, &'a Seat)> + 'a {
        self.teams
            .iter()
            .filter(move |team| team.organization == organization)
            .filter_map(move |team| team.seat(user).map(|seat| (team, seat)))
    }

    /// Takes a user out of every team of an organization (they left it).
    pub fn forget_member(&mut self, organization: &str, user: &str) {
        for team in self
            .teams
            .iter_mut()
            .filter(|team| team.organization == organization)
        {
            team.seats.retain(|seat| seat.user != user);
        }
    }
}

impl Team {
    pub fn seat(&self, user: &str) -> Option<&Seat> {
        self.seats.iter().find(|seat| seat.user == user)
    }
}
