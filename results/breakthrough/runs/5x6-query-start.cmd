cd ~/dfasolve-runs/bt-5x6-classes && /usr/bin/time -v dfasolve query classes 'xxxxx/xxxxx/...../...../ooooo/ooooo first'   # build 6589498, beside the Othello 6x6 sweep
