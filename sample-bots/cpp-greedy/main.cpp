// cpp-greedy: reads the header up to STREAM, then answers each TICK line with one flushed line.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bot.h"

int main() {
    std::vector<std::string> header;
    std::string line;
    while (std::getline(std::cin, line)) {
        header.push_back(line);
        std::istringstream in(line);
        std::string word;
        if (in >> word && word == "STREAM") break;
    }
    Game game;
    if (!game.readHeader(header)) {
        std::cerr << "cpp-greedy: bad header\n";
        return 1;
    }
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string tickWord, action;
        int tick = 0;
        if (!(in >> tickWord >> tick >> action) || tickWord != "TICK") continue;
        if (action == "MOVE") {
            Pos p;
            if (in >> p.x >> p.y) game.opponentMoved(p);
        }
        std::cout << game.decide(tick) << std::endl;  // endl flushes
    }
    return 0;
}
