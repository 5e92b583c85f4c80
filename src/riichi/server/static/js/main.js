// The riichi browser client: ES modules served as they are, no build step.
// This one routes a path to the page that draws it.
import { loadMe } from "./account.js";
import { showChips } from "./chips.js";
import { showDaily } from "./daily.js";
import { showTournament, showTournaments } from "./tournaments.js";
import { showLobby } from "./lobby.js";
import { showLeague, showLeagues } from "./leagues.js";
import { showModeration } from "./moderation.js";
import { showMoney } from "./money.js";
import { showLeaderboard, showPlayer } from "./ratings.js";
import { showWatch } from "./watch.js";
import { showCompare, showReplay } from "./replay.js";
import { showReview, showReviewUpload } from "./review.js";
import { showGone } from "./dom.js";
import { playTable } from "./table.js";
import { translatePage } from "./i18n.js";

translatePage();

const path = location.pathname.split("/").filter(Boolean);
if (path.length) loadMe();  // the account line
if (path[0] === "watch") showWatch();
else if (path[0] === "leaderboard") showLeaderboard();
else if (path[0] === "player") showPlayer(decodeURIComponent(path[1]));
else if (path[0] === "table") {
  // the token after '#'; older links carried it as ?token=
  const token = location.hash.slice(1) || new URLSearchParams(location.search).get("token");
  playTable(path[1], token);
}
else if (path[0] === "replay") showReplay(path[1]);
else if (path[0] === "compare") showCompare(path[1], path[2]);
else if (path[0] === "review" && path.length === 3) showReview(path[1], path[2]);
else if (path[0] === "review") showReviewUpload();
else if (path[0] === "chips") showChips();
else if (path[0] === "money") showMoney();
else if (path[0] === "moderation") showModeration();
else if (path[0] === "leagues") showLeagues();
else if (path[0] === "league") showLeague(path[1]);
else if (path[0] === "daily") loadMe().then(showDaily);
else if (path[0] === "tournaments") showTournaments();
else if (path[0] === "tournament") showTournament(path[1]);
else if (path.length === 0) showLobby();
else showGone("No page here", `Nothing is served at ${location.pathname}.`);
