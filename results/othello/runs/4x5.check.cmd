dfasolve check solutions/othello-4x5-reachable-strong.dfas
